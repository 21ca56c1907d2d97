/// How a proven path's value is made from its last property's value: that value itself (`wrap` is
/// `nil`), or that value wrapped in an optional (an optional chain ending in a non-optional property).
/// One per proof, kept with it (`PathProof`, `StoredPath`) and by the plan that learnt it, which
/// lives for the rest of the process, so it is read from the plan unmanaged (`PathPlan.leaf`).
final class LeafConversion: @unchecked Sendable {  // immutable; `wrap` captures types only
    let wrap: LeafWrap?
    /// `wrap`, or a function never called when there is none: passed where a function is needed
    /// (unwrapping an optional function retained and released its context per change).
    let apply: LeafWrap
    /// Whether there is a `wrap`.
    let wraps: Bool

    init(wrap: LeafWrap?) {
        self.wrap = wrap
        if let wrap {
            self.apply = wrap
            self.wraps = true
        } else {
            self.apply = noLeafWrap
            self.wraps = false
        }
    }
}

/// A path observation's deliveries, specialised by the `@inlinable` caller of `observe`
/// (`PathObservation.deliveries`).
@usableFromInline
struct LeafDelivery {
    /// Delivers a change of a proven path's last property to its observation (the first argument), with
    /// the setter's old and new values, the conversion's `wrap` and whether there is one (a function is
    /// always passed: unwrapping an optional function retained and released its context per change),
    /// and what an in-place mutation did to the path's value: `PathObservation.deliverLeaf`.
    let leaf: (AnyObject, BorrowedValue, BorrowedValue, LeafWrap, Bool, CollectionMutation?) -> Void
    /// Delivers an evaluated change to its observation with the root the caller holds (a weak load of
    /// it would retain it through its side table): `PathObservation.deliverEvaluated`'s usual case.
    let evaluated: (AnyObject, AnyObject, BorrowedValue, BorrowedValue, CollectionMutation?) -> Void
    /// Delivers a re-wire's change to the observation and root given: the old value at the address
    /// given, which it destroys, typed (none: the new one stands in), and the new one the last
    /// function writes.
    let rewired: (AnyObject, AnyObject, UnsafeMutableRawPointer?, ValueWriter) -> Void

    @usableFromInline
    init(
        leaf: @escaping (AnyObject, BorrowedValue, BorrowedValue, LeafWrap, Bool, CollectionMutation?) -> Void,
        evaluated: @escaping (AnyObject, AnyObject, BorrowedValue, BorrowedValue, CollectionMutation?) -> Void,
        rewired: @escaping (AnyObject, AnyObject, UnsafeMutableRawPointer?, ValueWriter) -> Void
    ) {
        self.leaf = leaf
        self.evaluated = evaluated
        self.rewired = rewired
    }
}

/// The old value a proven path's last property had before a set, as its setter passed it, and how
/// the path's value is made from it (see `LeafConversion`).
/// Initialises a value at the address given.
@usableFromInline
typealias ValueWriter = (UnsafeMutableRawPointer) -> Void

struct LeafOldValue {
    let value: BorrowedValue
    let wrap: LeafWrap
    let wraps: Bool

    /// The path's value made from it.
    func value<Value>(as _: Value.Type) -> Value {
        wraps ? value.converted(by: wrap, to: Value.self) : value.read(as: Value.self)
    }
}
