/// The kind of a change, as Cocoa's `NSKeyValueChange` (``ObservedChange/Kind``).
///
/// ```swift
/// if change.kind == .setting { print("set to", change.newValue as Any) }
/// ```
public enum ObservedChangeKind: Sendable, Hashable {
    /// The value was set: assigned, or mutated in place in a way that is not one of the others.
    case setting
    /// Elements were inserted into a collection in place (`append`, `insert(_:at:)`): at
    /// ``ObservedChange/indexes`` of the new value.
    case insertion
    /// Elements were removed from a collection in place (`remove(at:)`, `removeLast()`): from
    /// ``ObservedChange/indexes`` of the old value.
    case removal
    /// Elements were replaced in place (`items[2] = x`, `swapAt`): at ``ObservedChange/indexes``.
    case replacement
}
