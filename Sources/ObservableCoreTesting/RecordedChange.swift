@_spi(Testing) import ObservableCore

/// One change an ``ObservationRecorder`` recorded: which key path, the kind, the values and whether
/// it came before the store; equatable, so that a test compares a whole recording in one line.
///
/// ```swift
/// #expect(recorder.changes == [
///     .setting(\.name, old: "", new: "Ann"),
///     .insertion(\.tags, at: 0, old: [], new: ["vip"]),
/// ])
/// ```
///
/// The factories take the values the observation's options ask for: `old:` and `new:` for the
/// default `[.old, .new]`, `new:` alone for `[.new]` and for `.initial`, `old:` alone for a `.prior`
/// change. For an optional property the values are of the optional type, so `new: nil` means "became
/// `nil`"; a value the options leave out is absent, which only ``init(_:kind:old:new:isPrior:indexes:)``
/// spells (as `nil` of `Value?`).
public struct RecordedChange<Root: AnyObject>: Equatable, CustomStringConvertible {
    /// The key path recorded: the one given to the recorder.
    public let keyPath: PartialKeyPath<Root>
    /// ``ObservedChangeKind/setting``, or for a collection mutated in place the kind of mutation.
    public let kind: ObservedChangeKind
    /// The value before the change, when the options asked for it.
    public let oldValue: (any Equatable)?
    /// The value after the change, when the options asked for it (never for a prior change).
    public let newValue: (any Equatable)?
    /// `true` for the change sent before the store (``ObservationOptions/prior``).
    public let isPrior: Bool
    /// For a collection mutated in place: the positions inserted, removed or replaced.
    public let indexes: RangeSet<Int>?

    /// A change as the observation delivers it: each value `nil` where the options leave it out.
    public init<Value: Equatable>(
        _ keyPath: KeyPath<Root, Value>, kind: ObservedChangeKind = .setting, old: Value?, new: Value?,
        isPrior: Bool = false, indexes: RangeSet<Int>? = nil
    ) {
        self.keyPath = keyPath
        self.kind = kind
        self.oldValue = old.map { $0 }
        self.newValue = new.map { $0 }
        self.isPrior = isPrior
        self.indexes = indexes
    }

    /// The recorded form of `change`, delivered for `keyPath`.
    init<Value: Equatable>(_ change: ObservedChange<Value>, of keyPath: KeyPath<Root, Value>) {
        self.init(
            keyPath, kind: change.kind, old: change.oldValue, new: change.newValue, isPrior: change.isPrior,
            indexes: change.indexes)
    }

    /// An assignment seen with the default options, `[.old, .new]`.
    public static func setting<Value: Equatable>(_ keyPath: KeyPath<Root, Value>, old: Value, new: Value) -> Self {
        Self(keyPath, old: old, new: new)
    }

    /// An assignment seen with `[.new]`, or the `.initial` value (which has no old value).
    public static func setting<Value: Equatable>(_ keyPath: KeyPath<Root, Value>, new: Value) -> Self {
        Self(keyPath, old: nil, new: new)
    }

    /// The change sent before a store, seen with `[.old, .prior]` (and `.new`, which it never carries).
    public static func prior<Value: Equatable>(_ keyPath: KeyPath<Root, Value>, old: Value) -> Self {
        Self(keyPath, old: old, new: nil, isPrior: true)
    }

    /// Elements inserted in place at `indexes` of the new value, seen with `[.old, .new]`.
    public static func insertion<Value: Equatable>(
        _ keyPath: KeyPath<Root, Value>, at indexes: RangeSet<Int>, old: Value, new: Value
    ) -> Self {
        Self(keyPath, kind: .insertion, old: old, new: new, indexes: indexes)
    }

    /// One element inserted in place at `index` of the new value, seen with `[.old, .new]`.
    public static func insertion<Value: Equatable>(
        _ keyPath: KeyPath<Root, Value>, at index: Int, old: Value, new: Value
    ) -> Self {
        insertion(keyPath, at: RangeSet(index..<index + 1), old: old, new: new)
    }

    /// Elements removed in place from `indexes` of the old value, seen with `[.old, .new]`.
    public static func removal<Value: Equatable>(
        _ keyPath: KeyPath<Root, Value>, at indexes: RangeSet<Int>, old: Value, new: Value
    ) -> Self {
        Self(keyPath, kind: .removal, old: old, new: new, indexes: indexes)
    }

    /// One element removed in place from `index` of the old value, seen with `[.old, .new]`.
    public static func removal<Value: Equatable>(
        _ keyPath: KeyPath<Root, Value>, at index: Int, old: Value, new: Value
    ) -> Self {
        removal(keyPath, at: RangeSet(index..<index + 1), old: old, new: new)
    }

    /// Elements replaced in place at `indexes`, seen with `[.old, .new]`.
    public static func replacement<Value: Equatable>(
        _ keyPath: KeyPath<Root, Value>, at indexes: RangeSet<Int>, old: Value, new: Value
    ) -> Self {
        Self(keyPath, kind: .replacement, old: old, new: new, indexes: indexes)
    }

    /// One element replaced in place at `index`, seen with `[.old, .new]`.
    public static func replacement<Value: Equatable>(
        _ keyPath: KeyPath<Root, Value>, at index: Int, old: Value, new: Value
    ) -> Self {
        replacement(keyPath, at: RangeSet(index..<index + 1), old: old, new: new)
    }

    /// Two recorded changes are equal when key path, kind, prior flag and indexes are equal and the old
    /// and new values are equal as their own `Equatable` types (values of different types are unequal).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.keyPath == rhs.keyPath && lhs.kind == rhs.kind && lhs.isPrior == rhs.isPrior
            && lhs.indexes == rhs.indexes && equal(lhs.oldValue, rhs.oldValue) && equal(lhs.newValue, rhs.newValue)
    }

    private static func equal(_ lhs: (any Equatable)?, _ rhs: (any Equatable)?) -> Bool {
        switch (lhs, rhs) {
        case (nil, nil): true
        case (let lhs?, let rhs?): lhs.isEqual(to: rhs)
        default: false
        }
    }

    /// `\Person.name: "" → "Ann"`, `\Person.tags insertion at 0..<1: [] → ["vip"]`,
    /// `\Person.age prior: 3 → (absent)`.
    public var description: String {
        var head = _describeKeyPath(keyPath, rootType: Root.self)
        if kind != .setting { head += " \(kind)" }
        if let indexes {
            head += " at " + indexes.ranges.map { "\($0.lowerBound)..<\($0.upperBound)" }.joined(separator: ", ")
        }
        if isPrior { head += " prior" }
        func text(_ value: (any Equatable)?) -> String { value.map { String(reflecting: $0) } ?? "(absent)" }
        return "\(head): \(text(oldValue)) → \(text(newValue))"
    }
}

extension Equatable {
    /// Whether `other` holds a value of this type equal to this one.
    fileprivate func isEqual(to other: any Equatable) -> Bool {
        (other as? Self).map { $0 == self } ?? false
    }
}
