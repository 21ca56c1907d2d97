/// Whether two values of a change (as `KeyedValue` keeps them: unwrapped, `nil` for `nil`) are
/// equal, when that can be known: by `==` for `Equatable` values, by identity for objects, element
/// by element for arrays of them; `nil` for values that cannot be compared.
enum ValueEquality {
    static func areEqual(_ first: Any?, _ second: Any?) -> Bool? {
        guard let first, let second else { return first == nil && second == nil }
        if let equatable = first as? any Equatable { return equatable.isEqual(to: second) }
        if type(of: first) is AnyClass, type(of: second) is AnyClass {
            return first as AnyObject === second as AnyObject
        }
        // An array of values that are not `Equatable` themselves (objects): element by element.
        if let first = (first as? any ObjectContainer)?.orderedValues,
            let second = (second as? any ObjectContainer)?.orderedValues
        {
            guard first.count == second.count else { return false }
            for (one, other) in zip(first, second) {
                guard let equal = areEqual(one, other) else { return nil }
                if !equal { return false }
            }
            return true
        }
        return nil
    }
}

extension Equatable {
    /// `self == other`, `false` when `other` is not a `Self`.
    fileprivate func isEqual(to other: Any) -> Bool {
        (other as? Self).map { $0 == self } ?? false
    }
}
