/// What an observation delivers, and when: the options of Cocoa's key-value observing.
///
/// ```swift
/// let token = person.observe(\.name, options: [.initial, .old, .new]) { person, change in
///     print(change.oldValue as Any, "->", change.newValue as Any)
/// }
/// ```
///
/// Order for one set, as in Cocoa: `.initial` fires once from inside `observe`; then, for each
/// set, the `.prior` notification (before the store, `isPrior == true`, carrying the old value
/// when `.old` is requested and never a new value), then the notification after the store.
public struct ObservationOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// Include the value after the change in `ObservedChange.newValue`.
    public static let new = ObservationOptions(rawValue: 1 << 0)
    /// Include the value before the change in `ObservedChange.oldValue`.
    public static let old = ObservationOptions(rawValue: 1 << 1)
    /// Deliver the current value once, from inside `observe`, before it returns.
    public static let initial = ObservationOptions(rawValue: 1 << 2)
    /// Also notify before each store, with `isPrior == true`.
    public static let prior = ObservationOptions(rawValue: 1 << 3)
}
