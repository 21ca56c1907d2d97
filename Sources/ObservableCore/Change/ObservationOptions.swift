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
    /// The options as bits; use the named options (``new``, ``old``, ``initial``, ``prior``) instead.
    public let rawValue: UInt8

    @inlinable
    /// Options from their bits; use the named options (``new``, ``old``, ``initial``, ``prior``) instead.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// Include the value after the change in `ObservedChange.newValue`.
    @inlinable public static var new: ObservationOptions { ObservationOptions(rawValue: 1 << 0) }
    /// Include the value before the change in `ObservedChange.oldValue`.
    @inlinable public static var old: ObservationOptions { ObservationOptions(rawValue: 1 << 1) }
    /// Deliver the current value once, from inside `observe`, before it returns.
    @inlinable public static var initial: ObservationOptions { ObservationOptions(rawValue: 1 << 2) }
    /// Also notify before each store, with `isPrior == true`.
    @inlinable public static var prior: ObservationOptions { ObservationOptions(rawValue: 1 << 3) }
}

extension ObservationOptions: CustomStringConvertible {
    /// The options as they are written: `[.initial, .new]`.
    public var description: String {
        let names: [(ObservationOptions, String)] = [
            (.initial, ".initial"), (.old, ".old"), (.new, ".new"), (.prior, ".prior"),
        ]
        return "[" + names.filter { contains($0.0) }.map(\.1).joined(separator: ", ") + "]"
    }
}
