import Synchronization

/// The part of a path observation that its links see (see `PathLink`): not generic, so that a link
/// holds it as one class reference. Told before and after each dependency changes, and when the
/// instance of one of them is deallocated; `PathObservation` overrides every method.
@usableFromInline
class PathObservationBase: AnyObservation, @unchecked Sendable {
    /// Whether the path's last property's link may deliver with `plan.leafDelivery` (see
    /// `PathProof`): the plan has one and `.prior` was not asked for. Declared first, so that it
    /// fits in the word of `state`.
    final let deliversLeafChanges: Bool
    /// What the observations of this key path on this class share (see `PathPlan`); immortal, so
    /// held unmanaged and used in place (`withPlan`): a plain reference was retained and released
    /// around each use.
    @usableFromInline final let plan: Unmanaged<PathPlan>
    /// Changes of the path's dependencies that have begun (their `willChange` reached a link) and are
    /// not yet handled (the path evaluated and re-linked). While there are any, the path may already
    /// have moved off the object of its last property's link.
    final let intermediatesInFlight = Atomic<Int>(0)

    @usableFromInline
    init(plan: PathPlan, deliversLeafChanges: Bool) {
        self.plan = Unmanaged.passUnretained(plan)
        self.deliversLeafChanges = deliversLeafChanges
        super.init()
    }

    /// Runs `body` with the plan, which needs no reference counting: it is immortal.
    @inlinable @inline(__always)
    final func withPlan<Result>(_ body: (PathPlan) -> Result) -> Result {
        plan._withUnsafeGuaranteedRef(body)
    }

    /// What the changes carry and `observes` compares.
    @inlinable
    final var keyPath: InternedKeyPath { withPlan { $0.keyPath } }

    /// The path read through its stored fields, once a proof on this class gives it.
    final var storedPath: StoredPath? { withPlan { $0.storedPath.load() } }

    /// Keeps `storedPath` as the plan's, unless it has one.
    final func learn(_ storedPath: StoredPath) {
        withPlan { $0.storedPath.storeIfNil(storedPath) }
    }

    /// Delivers a change of the path's last property with its setter's values (see `LeafDelivery`).
    final func deliverLeafChange(_ old: BorrowedValue, _ new: BorrowedValue, _ wrap: LeafWrap, wraps: Bool) {
        withPlan { $0.leafDelivery(self, old, new, wrap, wraps) }
    }

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
