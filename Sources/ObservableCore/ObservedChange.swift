/// One notification of an observation: what kind of change, the values, and the key path.
///
/// `oldValue` and `newValue` are present only when the observation asked for them with
/// ``ObservationOptions/old`` and ``ObservationOptions/new``; a `.prior` notification never carries
/// a new value and an `.initial` one never carries an old value. For an optional property the
/// values are double optionals: `change.newValue` is `.some(nil)` when the property became `nil`.
///
/// ```swift
/// let token = person.observe(\.age, options: [.old, .new]) { _, change in
///     if change.keyPath == \Person.age, let old = change.oldValue, let new = change.newValue {
///         print("age \(old) -> \(new)")
///     }
/// }
/// ```
public struct ObservedChange<Value> {
    /// The kind of a change, as Cocoa's `NSKeyValueChange`; the same type for every `Value`.
    public typealias Kind = ObservedChangeKind

    /// The kind of change; every change of an `@Observed` property is a ``Kind/setting``.
    public let kind: Kind
    /// The value before the change, when ``ObservationOptions/old`` was requested.
    public let oldValue: Value?
    /// The value after the change, when ``ObservationOptions/new`` was requested.
    public let newValue: Value?
    /// `true` for the notification sent before the store (``ObservationOptions/prior``).
    public let isPrior: Bool
    /// The key path that was observed, as given to `observe`.
    public let keyPath: AnyKeyPath

    /// Creates a change; the library creates these, tests may too.
    @inlinable
    public init(kind: Kind = .setting, oldValue: Value?, newValue: Value?, isPrior: Bool = false, keyPath: AnyKeyPath) {
        self.kind = kind
        self.oldValue = oldValue
        self.newValue = newValue
        self.isPrior = isPrior
        self.keyPath = keyPath
    }
}

/// The kind of a change, as Cocoa's `NSKeyValueChange` (``ObservedChange/Kind``).
///
/// ```swift
/// if change.kind == .setting { print("set to", change.newValue as Any) }
/// ```
public enum ObservedChangeKind: Sendable, Hashable {
    /// The value was set (assigned or mutated in place).
    case setting
}

// Key path objects are immutable once formed; the change carries one to say which path changed (compare
// it with `==`), and the values themselves are checked by the `Value: Sendable` requirement.
extension ObservedChange: @unchecked Sendable where Value: Sendable {}

extension ObservedChange: CustomStringConvertible {
    public var description: String {
        var parts = ["\(kind)"]
        if isPrior { parts.append("prior") }
        if let oldValue { parts.append("old: \(String(reflecting: oldValue))") }
        if let newValue { parts.append("new: \(String(reflecting: newValue))") }
        return "ObservedChange(\(parts.joined(separator: ", ")))"
    }
}

extension ObservationOptions {
    /// Builds the change an observation with these options receives.
    @inlinable
    func change<Value>(old: @autoclosure () -> Value?, new: @autoclosure () -> Value?, isPrior: Bool, keyPath: AnyKeyPath) -> ObservedChange<Value> {
        ObservedChange(
            kind: .setting,
            oldValue: contains(.old) ? old() : nil,
            newValue: contains(.new) && !isPrior ? new() : nil,
            isPrior: isPrior,
            keyPath: keyPath
        )
    }
}
