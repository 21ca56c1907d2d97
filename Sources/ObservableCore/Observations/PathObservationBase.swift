import Synchronization

/// The part of a path observation that its links see (see `PathLink`): not generic, so that a link
/// holds it as one class reference. Told before and after each dependency changes, and when the
/// instance of one of them is deallocated; `PathObservation` overrides every method.
@usableFromInline
class PathObservationBase: AnyObservation, @unchecked Sendable {
    /// Whether the path's last property's link may deliver with `leafDelivery` (see `PathProof`).
    /// Declared first, so that it fits in the word of `state`.
    final let deliversLeafChanges: Bool
    /// Changes of the path's dependencies that have begun (their `willChange` reached a link) and are
    /// not yet handled (the path evaluated and re-linked). While there are any, the path may already
    /// have moved off the object of its last property's link.
    final let intermediatesInFlight = Atomic<Int>(0)
    /// Delivers a change of the last property of a path proven to be pure navigation, called with
    /// this observation (`PathObservation.deliverLeaf`, specialised by the `@inlinable` caller of
    /// `observe`); a function never called without `deliversLeafChanges`. Not optional: calling a
    /// `let` function in place needs no retain of its context, where unwrapping an optional one into
    /// a local retained and released it per change.
    final let leafDelivery: LeafDelivery

    @usableFromInline
    init(leafDelivery: LeafDelivery?) {
        // Unwrapped with `if let`: `??` returns the function at its generic abstraction, and calling
        // it then went through a thunk that allocated a context for `wrap` at every change.
        if let leafDelivery {
            self.deliversLeafChanges = true
            self.leafDelivery = leafDelivery
        } else {
            self.deliversLeafChanges = false
            self.leafDelivery = Self.noDelivery
        }
        super.init()
    }

    private static func noDelivery(_: AnyObject, _: BorrowedValue, _: BorrowedValue, _: LeafWrap, _: Bool) {}

    /// Whether `dependencyWillChange` is wanted (old values or `.prior` notifications).
    var wantsWillChange: Bool { false }

    /// Before and after a change of one dependency, told by `source` (a link's identity, or `nil`
    /// for a change announced by hand) with the set's `stamp` (`ObserverList.stamp`): the two calls
    /// of one change carry the same pair.
    func dependencyWillChange(from source: ObjectIdentifier?, stamp: Int) {}

    /// `leafOld`: from the last property's link of a proven path whose setter's new value cannot be
    /// trusted (see `LeafPathLink`), that setter's old value; the path is then evaluated for the new one.
    func dependencyDidChange(from source: ObjectIdentifier?, stamp: Int, leafOld: LeafOldValue?) {}

    /// The list of a link, `link` its identity, ended: the list's instance was deallocated.
    func dependencyEnded(_ link: ObjectIdentifier) {}

    /// Whether this observes `keyPath` on `root` (for manual notification of a computed property).
    func observes(_ root: AnyObject, _ keyPath: AnyKeyPath) -> Bool { false }
}
