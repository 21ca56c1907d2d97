import Synchronization

/// The part of a path observation that its links see (see `PathLink`): not generic, so that a link
/// holds it as one class reference. Told before and after each dependency changes, and when the
/// instance of one of them is deallocated; `PathObservation` overrides every method.
///
/// It is itself a list entry: the entry of the path's first dependency (the root's first property
/// read, the same list for as long as the path starts there), so that a path of two properties
/// allocates one link, not two (see `PathLinks`). Its `notify` forwards like a link's.
///
/// Layout: the small fields share one word, the plan is one, and `PathObservation` keeps its first
/// link inline, so that the observation stays in the chunk `PathObservationLayoutTests` checks.
@usableFromInline
class PathObservationBase: ListEntry, @unchecked Sendable {
    // The small fields, declared together so that they share one word.
    /// Whether changes of the path's dependencies have begun (their `willChange` reached a link) and
    /// are not yet handled (the path evaluated and re-linked). While some are, the path may already
    /// have moved off the object of its last property's link.
    final let hasChangesInFlight = Atomic<Bool>(false)
    /// Whether the path's last property's link may deliver with `plan.leafDelivery` (see
    /// `PathProof`): the plan has one and `.prior` was not asked for.
    final let deliversLeafChanges: Bool
    /// What the user asked for (`ListEntry.options` is the entry's: `.prior`, as a link's).
    @usableFromInline final let requestedOptions: ObservationOptions
    /// Its sections move links (a few allocations and list locks) and count changes; they call no
    /// user code. Inline, where a `Lock` allocates its mutex.
    final let lock = ShortLock()
    /// Whether the leaf link hears `willChange` (it does while changes are in flight). Guarded by
    /// `lock`, so Swift's run-time exclusivity checks are off.
    @exclusivity(unchecked) final var leafHearsWillChange = false
    /// What the observations of this key path on this class share (see `PathPlan`); immortal, so
    /// held unmanaged and used in place (`withPlan`), not retained and released around each use.
    @usableFromInline final let plan: Unmanaged<PathPlan>

    @usableFromInline
    init(plan: PathPlan, options: ObservationOptions) {
        self.plan = Unmanaged.passUnretained(plan)
        self.requestedOptions = options
        // Without a leaf delivery (string key paths), or with `.prior` asked for, leaf changes are
        // evaluated like any other.
        self.deliversLeafChanges = plan.hasLeafDelivery && !options.sendsPrior
        super.init(options: .prior, countsForWillChange: true) { entry, _, _, newValue, mutation, stamp in
            let observation = unsafeDowncast(entry, to: PathObservationBase.self)
            guard observation.isActive else { return }
            observation.forward(
                from: ObjectIdentifier(observation), isDidChange: newValue != nil, stamp: stamp,
                mutated: mutation != nil)
        }
    }

    /// Forwards a change heard by one of the path's entries (`source`: the observation itself or a
    /// link) as `dependencyWillChange` or `dependencyDidChange`; `mutated`: the change was an
    /// in-place mutation of a collection.
    @inline(__always)
    final func forward(from source: ObjectIdentifier, isDidChange: Bool, stamp: Int, mutated: Bool) {
        if isDidChange {
            dependencyDidChange(from: source, stamp: stamp, leafOld: nil, mutated: mutated)
        } else {
            dependencyWillChange(from: source, stamp: stamp)
        }
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
    final func deliverLeafChange(
        _ old: BorrowedValue, _ new: BorrowedValue, _ wrap: LeafWrap, wraps: Bool, _ mutation: CollectionMutation?
    ) {
        withPlan { $0.leafDelivery(self, old, new, wrap, wraps, mutation) }
    }

    /// Whether the value before a change is kept: for its old value, its `.prior` notification, or
    /// to compare with the value after an in-place mutation (a collection's kind and indexes).
    final var keepsValueBeforeChange: Bool {
        requestedOptions.needsValueBeforeStore || withPlan { $0.describesCollectionChanges }
    }

    /// Whether the value before a change is needed as it is delivered: for the change's old value,
    /// or to compare with the value after an in-place mutation.
    final var needsOldValue: Bool {
        requestedOptions.carriesOld || withPlan { $0.describesCollectionChanges }
    }

    /// Before and after a change of one dependency, told by `source` (an entry's identity, or `nil`
    /// for a change announced by hand) with the set's `stamp` (`ObserverList.stamp`): the two calls
    /// of one change carry the same pair.
    func dependencyWillChange(from source: ObjectIdentifier?, stamp: Int) {}

    /// `leafOld`: from the last property's link of a proven path whose setter's new value cannot be
    /// trusted (see `LeafPathLink`), that setter's old value; the path is then evaluated for the new one.
    /// `mutated`: the change was an in-place mutation of a collection (the path's change then says
    /// what it did to the path's value, when that is a collection).
    func dependencyDidChange(from source: ObjectIdentifier?, stamp: Int, leafOld: LeafOldValue?, mutated: Bool) {}

    /// The list of an entry, `entry` its identity, ended: the list's instance was deallocated.
    func dependencyEnded(_ entry: ObjectIdentifier) {}

    /// The list the observation itself was in ended.
    override final func listEnded() { dependencyEnded(ObjectIdentifier(self)) }

    /// Whether this observes `keyPath` on `root` (for manual notification of a computed property).
    func observes(_ root: AnyObject, _ keyPath: AnyKeyPath) -> Bool { false }
}
