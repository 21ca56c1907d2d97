/// What an in-place mutation of an `@Observed` collection did, found by comparing the old and the
/// new value after the mutation (see `ObservationSlot.didMutate`).
@usableFromInline
final class CollectionMutation: @unchecked Sendable {  // immutable
    @usableFromInline let kind: ObservedChangeKind
    @usableFromInline let indexes: RangeSet<Int>

    @usableFromInline
    init(kind: ObservedChangeKind, indexes: RangeSet<Int>) {
        self.kind = kind
        self.indexes = indexes
    }

    /// One contiguous insertion or removal, or replacements in place; `nil` for anything else or no
    /// change (a setting).
    @inlinable
    convenience init?<C: RandomAccessCollection>(from old: C, to new: C, same: (C.Element, C.Element) -> Bool) {
        let oldCount = old.count
        let newCount = new.count
        // Common prefix, then common suffix not overlapping it.
        var prefix = 0
        var oldIndex = old.startIndex
        var newIndex = new.startIndex
        while prefix < oldCount, prefix < newCount, same(old[oldIndex], new[newIndex]) {
            prefix += 1
            old.formIndex(after: &oldIndex)
            new.formIndex(after: &newIndex)
        }
        var suffix = 0
        var oldEnd = old.endIndex
        var newEnd = new.endIndex
        while suffix < oldCount - prefix, suffix < newCount - prefix {
            old.formIndex(before: &oldEnd)
            new.formIndex(before: &newEnd)
            guard same(old[oldEnd], new[newEnd]) else { break }
            suffix += 1
        }
        if newCount > oldCount, prefix + suffix == oldCount {
            self.init(kind: .insertion, indexes: RangeSet(prefix..<newCount - suffix))
        } else if newCount < oldCount, prefix + suffix == newCount {
            self.init(kind: .removal, indexes: RangeSet(prefix..<oldCount - suffix))
        } else if newCount == oldCount, prefix < oldCount {
            var replaced = RangeSet<Int>()
            var oldIndex = oldIndex
            var newIndex = newIndex
            for offset in prefix..<oldCount - suffix {
                if !same(old[oldIndex], new[newIndex]) { replaced.insert(offset, within: 0..<oldCount) }
                old.formIndex(after: &oldIndex)
                new.formIndex(after: &newIndex)
            }
            self.init(kind: .replacement, indexes: replaced)
        } else {
            return nil
        }
    }
}

extension CollectionMutation {
    /// The same for a `Value` found at run time to be such a collection; `nil` for any other type, an
    /// optional collection included, as at compile time.
    @usableFromInline
    static func detected<Value>(from old: Value, to new: Value) -> CollectionMutation? {
        guard !(Value.self is any OptionalProtocol.Type),
            let old = old as? any RandomAccessCollection & RangeReplaceableCollection
        else { return nil }
        return detected(from: old, to: new as Any)
    }

    /// Whether values of `type` are collections whose in-place changes `detected` describes.
    static func describesChanges(of type: Any.Type) -> Bool {
        guard !(type is any OptionalProtocol.Type),
            let collection = type as? any (RandomAccessCollection & RangeReplaceableCollection).Type
        else { return false }
        return comparesElements(of: collection)
    }

    private static func comparesElements<C: RandomAccessCollection & RangeReplaceableCollection>(
        of _: C.Type
    ) -> Bool {
        C.Element.self is any Equatable.Type || C.Element.self is AnyObject.Type
    }

    private static func detected<C: RandomAccessCollection & RangeReplaceableCollection>(
        from old: C, to new: Any
    ) -> CollectionMutation? {
        guard let new = new as? C else { return nil }
        if C.Element.self is any Equatable.Type {
            return CollectionMutation(from: old, to: new) { a, b in (a as? any Equatable)?.isEqual(to: b) ?? false }
        }
        if C.Element.self is AnyObject.Type {
            return CollectionMutation(from: old, to: new) { a, b in (a as AnyObject) === (b as AnyObject) }
        }
        return nil
    }
}

extension Equatable {
    /// `==` with a value of unknown type: `false` unless it is a `Self`.
    fileprivate func isEqual(to other: Any) -> Bool {
        (other as? Self).map { $0 == self } ?? false
    }
}

extension RangeSet<Int> {
    /// The ranges as written, `0..<1, 3..<5`: how descriptions show a change's indexes.
    var rangesText: String {
        ranges.map { "\($0.lowerBound)..<\($0.upperBound)" }.joined(separator: ", ")
    }
}

/// The kind of a change, as Cocoa's `NSKeyValueChange`.
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
