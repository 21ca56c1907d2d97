/// One notification of an observation made with a string key path.
///
/// Like ``ObservedChange``, with the values as `Any` and the key path as the string observed.
/// `oldValue` and `newValue` are `nil` when not requested (``ObservationOptions/old``,
/// ``ObservationOptions/new``) and when the value at the path is `nil`.
public struct KeyedChange: CustomStringConvertible {
    /// The kind of change: ``ObservedChangeKind/setting`` for an assignment; for a string key path of
    /// one `@Observed` array (any random-access, range-replaceable collection of `Equatable` elements
    /// or of class references) mutated in place, the kind ``ObservedChange/kind`` would have, with
    /// ``indexes``. A path of several properties reports ``ObservedChangeKind/setting``.
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

    /// For ``ObservedChangeKind/insertion``, ``ObservedChangeKind/removal`` and
    /// ``ObservedChangeKind/replacement``: the positions that were inserted into the new value,
    /// removed from the old one, or replaced, as ``ObservedChange/indexes``. `nil` for
    /// ``ObservedChangeKind/setting``.
    public var indexes: RangeSet<Int>? { mutation?.indexes }

    /// The value before the change, unwrapped from any optionals.
    public var oldValue: Any? { old.any }

    /// The value after the change, unwrapped from any optionals.
    public var newValue: Any? { new.any }

    /// The value before the change as a `Value`; `nil` when there is none or it is not a `Value`.
    ///
    /// `change.oldValue(as: Int.self)` is `change.oldValue as? Int`, read without a dynamic cast
    /// when the value is exactly a `Value`: the cheap way to read a value whose type you know.
    @inlinable @inline(__always)
    public func oldValue<Value>(as _: Value.Type) -> Value? {
        old.value(as: Value.self)
    }

    /// The value after the change as a `Value`; `nil` when there is none or it is not a `Value`.
    ///
    /// `change.newValue(as: Int.self)` is `change.newValue as? Int`, read without a dynamic cast
    /// when the value is exactly a `Value`.
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
    // In an extension, so that the memberwise initializer exists: it makes a change as one value,
    // where an initializer storing each field made it in a stack slot, which the compiler then
    // destroyed through the value witness even with nothing to release.
    init(
        old: KeyedValue, new: KeyedValue, isPrior: Bool, name: StringKeyPathName, mutation: CollectionMutation? = nil
    ) {
        self.init(
            kind: mutation?.kind ?? .setting, isPrior: isPrior, name: name, old: old, new: new, mutation: mutation)
    }

    init(_ change: ObservedChange<Any?>, name: StringKeyPathName) {
        self.init(
            old: KeyedValue(change.oldValue ?? nil), new: KeyedValue(change.newValue ?? nil),
            isPrior: change.isPrior, name: name, mutation: change.mutation)
    }
}
