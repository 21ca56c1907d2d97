/// What an observation observes, for the descriptions of live observations: its key path and
/// options, the API that made it, and, for a path, the root it is evaluated from.
struct ObservationSummary {
    let keyPath: AnyKeyPath
    let options: ObservationOptions
    let origin: ObservationOrigin
    /// A path evaluated after each change of what it read (nested or computed), not one property.
    let isPath: Bool
    /// A path's root, while it lives: its identity and class, without keeping it alive.
    let root: (id: ObjectIdentifier, type: AnyClass)?

}
