/// One notification of an observation made with a string key path.
///
/// Like ``ObservedChange``, with the values as `Any` and the key path as the string observed.
/// `oldValue` and `newValue` are `nil` when not requested (``ObservationOptions/old``,
/// ``ObservationOptions/new``) and when the value at the path is `nil`.
public struct KeyedChange: CustomStringConvertible {
    /// The kind of change (always ``ObservedChangeKind/setting`` for a string key path).
    public let kind: ObservedChangeKind
    /// The value before the change, unwrapped from any optionals.
    public let oldValue: Any?
    /// The value after the change, unwrapped from any optionals.
    public let newValue: Any?
    /// `true` for the notification sent before the store (``ObservationOptions/prior``).
    public let isPrior: Bool
    /// The string key path that was observed.
    public let keyPath: String

    init(oldValue: Any?, newValue: Any?, isPrior: Bool, keyPath: String) {
        kind = .setting
        self.oldValue = oldValue
        self.newValue = newValue
        self.isPrior = isPrior
        self.keyPath = keyPath
    }

    init(_ change: ObservedChange<Any?>, keyPath: String) {
        self.init(
            oldValue: change.oldValue ?? nil, newValue: change.newValue ?? nil, isPrior: change.isPrior,
            keyPath: keyPath)
    }

    /// The change on one line, as `print(change)` shows it: kind, old and new values, and the key path.
    public var description: String {
        var parts = ["\(kind)", "\"\(keyPath)\""]
        if isPrior { parts.append("prior") }
        if let oldValue { parts.append("old: \(String(reflecting: oldValue))") }
        if let newValue { parts.append("new: \(String(reflecting: newValue))") }
        return "KeyedChange(\(parts.joined(separator: ", ")))"
    }
}
