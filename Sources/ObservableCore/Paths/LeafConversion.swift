/// How a proven path's value is made from its last property's value: that value itself (`wrap` is
/// `nil`), or that value wrapped in an optional (an optional chain ending in a non-optional property).
struct LeafConversion {
    let wrap: LeafWrap?
}

/// Delivers a change of a proven path's last property to its observation (the first argument), with
/// the setter's old and new values, the conversion's `wrap` and whether there is one (a function is
/// always passed: unwrapping an optional function retained and released its context per change):
/// `PathObservation.deliverLeaf`, specialised by the `@inlinable` caller of `observe`.
@usableFromInline
typealias LeafDelivery = (AnyObject, BorrowedValue, BorrowedValue, LeafWrap, Bool) -> Void
