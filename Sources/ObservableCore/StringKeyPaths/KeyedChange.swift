/// One notification of an observation made with a string key path: an ``ObservedChange`` with the
/// values as `Any` (`nil` when not asked for or `nil`) and the key path as the string.
public struct KeyedChange: CustomStringConvertible {
    /// The kind of change; for one `@Observed` collection mutated in place, with ``indexes``.
    public let kind: ObservedChangeKind
    /// `true` for the notification sent before the store (``ObservationOptions/prior``).
    public let isPrior: Bool
    /// The string key path that was observed.
    public var keyPath: String { name.string }
    private let name: StringKeyPathName
    @usableFromInline let old: KeyedValue
    @usableFromInline let new: KeyedValue
    /// Holds the indexes, as ``ObservedChange`` does.
    private let mutation: CollectionMutation?

    /// The positions inserted, removed or replaced; `nil` for ``ObservedChangeKind/setting``.
    public var indexes: RangeSet<Int>? { mutation?.indexes }

    /// The value before the change, unwrapped from any optionals.
    public var oldValue: Any? { old.any }

    /// The value after the change, unwrapped from any optionals.
    public var newValue: Any? { new.any }

    /// `oldValue as? Value`, without a dynamic cast when it is exactly a `Value`.
    @inlinable @inline(__always)
    public func oldValue<Value>(as _: Value.Type) -> Value? {
        old.value(as: Value.self)
    }

    /// `newValue as? Value`, without a dynamic cast when it is exactly a `Value`.
    @inlinable @inline(__always)
    public func newValue<Value>(as _: Value.Type) -> Value? {
        new.value(as: Value.self)
    }

    /// The change on one line, as `print(change)` shows it: kind, old and new values, and the key path.
    public var description: String {
        var parts = ["\(kind)", "\"\(keyPath)\""]
        if let indexes { parts.append("indexes: \(indexes.rangesText)") }
        if isPrior { parts.append("prior") }
        if let oldValue { parts.append("old: \(String(reflecting: oldValue))") }
        if let newValue { parts.append("new: \(String(reflecting: newValue))") }
        return "KeyedChange(\(parts.joined(separator: ", ")))"
    }
}

extension KeyedChange {
    /// The change an observation with `options` receives: the one place a `KeyedChange` is built (in
    /// an extension, so that the memberwise initializer exists and builds it as one value).
    @inline(__always)
    init(
        options: ObservationOptions, old: @autoclosure () -> KeyedValue, new: @autoclosure () -> KeyedValue,
        isPrior: Bool, name: StringKeyPathName, mutation: CollectionMutation? = nil
    ) {
        let values = options.carried(old: old(), new: new(), isPrior: isPrior, none: .none)
        self.init(
            kind: mutation?.kind ?? .setting, isPrior: isPrior, name: name, old: values.old, new: values.new,
            mutation: mutation)
    }

    /// A path's change as a string key path's: the values it carries, as they are.
    init(_ change: ObservedChange<Any?>, name: StringKeyPathName) {
        self.init(
            options: [.old, .new], old: KeyedValue(change.oldValue ?? nil), new: KeyedValue(change.newValue ?? nil),
            isPrior: change.isPrior, name: name, mutation: change.mutation)
    }
}
