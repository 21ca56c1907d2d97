/// What an observation observes, for descriptions: key path, options, origin, and a path's root.
struct ObservationSummary {
    let keyPath: AnyKeyPath
    let options: ObservationOptions
    let origin: ObservationOrigin
    /// A path evaluated after each change of what it read (nested or computed), not one property.
    let isPath: Bool
    /// A path's root, while it lives: its identity and class, without keeping it alive.
    let root: (id: ObjectIdentifier, type: AnyClass)?
    /// Every `@Observed` property of the object, not one key path (`keyPath` means nothing then).
    var isWholeObject = false
}
