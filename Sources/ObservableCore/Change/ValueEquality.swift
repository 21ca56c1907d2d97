/// Whether two values are equal, when that can be known: by `==` for `Equatable` values, by identity
/// for objects, element by element for optionals and arrays of them; `nil` for values that cannot be
/// compared. What `.distinct` and `ChangeTracker` call equal.
@usableFromInline
enum ValueEquality {
    @usableFromInline
    static func areEqual(_ first: Any?, _ second: Any?) -> Bool? {
        guard let first, let second else { return first == nil && second == nil }
        if let equatable = first as? any Equatable { return equatable.isEqual(to: second) }
        if type(of: first) is AnyClass, type(of: second) is AnyClass {
            return first as AnyObject === second as AnyObject
        }
        if let first = (first as? any OrderedValues)?.orderedValues,
            let second = (second as? any OrderedValues)?.orderedValues
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

/// A value holding others in order (an optional, an array), compared element by element when it is
/// not `Equatable` itself (objects that are not).
protocol OrderedValues {
    var orderedValues: [Any] { get }
}

extension Optional: OrderedValues {
    var orderedValues: [Any] { map { [$0] } ?? [] }
}

extension Array: OrderedValues {
    var orderedValues: [Any] { map { $0 } }
}

extension ContiguousArray: OrderedValues {
    var orderedValues: [Any] { map { $0 } }
}

extension Equatable {
    /// `self == other`, `false` when `other` is not a `Self`.
    fileprivate func isEqual(to other: Any) -> Bool {
        (other as? Self).map { $0 == self } ?? false
    }
}
