/// One notification of an observation: what kind of change, the values, and the key path.
///
/// The values are present only when asked for (``ObservationOptions/old``,
/// ``ObservationOptions/new``); `.prior` has no new value, `.initial` no old one. For an optional
/// property they are double optionals.
public struct ObservedChange<Value> {
    /// The kind of a change, as Cocoa's `NSKeyValueChange`; the same type for every `Value`.
    public typealias Kind = ObservedChangeKind

    // In this order so that the one-byte fields fill the padding after the optionals' tags: a set
    // builds a change for every observer it calls, so each store counts.

    /// The value before the change, when ``ObservationOptions/old`` was requested.
    public let oldValue: Value?
    /// The kind of change: ``ObservedChangeKind/setting`` for an assignment; for an `@Observed`
    /// collection mutated in place, an insertion, removal or replacement, with ``indexes``.
    public let kind: Kind
    /// The value after the change, when ``ObservationOptions/new`` was requested.
    public let newValue: Value?
    /// `true` for the notification sent before the store (``ObservationOptions/prior``).
    public let isPrior: Bool
    /// The key path that was observed: equal (`==`) to the one given to `observe`.
    public var keyPath: AnyKeyPath { _keyPath.object }
    /// The offsets inserted into the new value, removed from the old one, or replaced; `nil` for
    /// ``ObservedChangeKind/setting``. `change.newValue![indexes]` are the inserted elements.
    public var indexes: RangeSet<Int>? { mutation?.indexes }

    /// Holds the indexes: one optional reference, so that every other change is made, moved and
    /// destroyed without the generic value witnesses a `RangeSet` stored inline would need.
    @usableFromInline let mutation: CollectionMutation?

    /// Interned, so carried without reference counting; a `var`, so one change serves several
    /// observations, each with its key path (`ObserverList.EntryRun.deliverDidChange`).
    @usableFromInline var _keyPath: InternedKeyPath

    /// Creates a change; the library creates these, tests may too.
    @inlinable
    public init(
        kind: Kind = .setting, oldValue: Value?, newValue: Value?, isPrior: Bool = false, keyPath: AnyKeyPath,
        indexes: RangeSet<Int>? = nil
    ) {
        self.init(
            kind: kind, oldValue: oldValue, newValue: newValue, isPrior: isPrior, keyPath: InternedKeyPath(keyPath),
            mutation: indexes.map { CollectionMutation(kind: kind, indexes: $0) })
    }

    /// The library's own initialiser: passes the mutation's box along without re-boxing.
    @inlinable
    init(
        kind: Kind, oldValue: Value?, newValue: Value?, isPrior: Bool, keyPath: InternedKeyPath,
        mutation: CollectionMutation?
    ) {
        self.kind = kind
        self.oldValue = oldValue
        self.newValue = newValue
        self.isPrior = isPrior
        self._keyPath = keyPath
        self.mutation = mutation
    }
}

// Key path objects are immutable once formed; the change carries one to say which path changed (compare
// it with `==`), and the values themselves are checked by the `Value: Sendable` requirement.
extension ObservedChange: @unchecked Sendable where Value: Sendable {}

extension ObservedChange: CustomStringConvertible {
    /// The change on one line, as `print(change)` shows it: kind, indexes, prior flag, old and new
    /// values (`ObservedChange(setting, old: "", new: "Ann")`).
    public var description: String {
        var parts = ["\(kind)"]
        if let indexes { parts.append("indexes: \(indexes.rangesText)") }
        if isPrior { parts.append("prior") }
        if let oldValue { parts.append("old: \(String(reflecting: oldValue))") }
        if let newValue { parts.append("new: \(String(reflecting: newValue))") }
        return "ObservedChange(\(parts.joined(separator: ", ")))"
    }
}
