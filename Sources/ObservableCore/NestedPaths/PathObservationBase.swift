import Synchronization

/// The part of a path observation its links see, not generic, and itself the entry of the path's
/// first dependency, so a two-property path allocates one link. Layout: the observation stays in the
/// chunk `PathObservationLayoutTests` checks.
@usableFromInline
class PathObservationBase: ListEntry, @unchecked Sendable {
    // The small fields, declared together so that they share one word.
    /// Whether changes of dependencies have begun and are not yet handled (the path may have moved).
    final let hasChangesInFlight = Atomic<Bool>(false)
    /// Whether the leaf link may deliver with `plan.leafDelivery`: the plan has one, and no `.prior`.
    final let deliversLeafChanges: Bool
    /// What the user asked for (`ListEntry.options` is the entry's: `.prior`, as a link's).
    @usableFromInline final let requestedOptions: ObservationOptions
    /// Moves links and counts changes, calling no user code. Inline, where a `Lock` allocates.
    final let lock = ShortLock()
    /// Whether the leaf link hears `willChange`. Guarded by `lock`.
    @exclusivity(unchecked) final var leafHearsWillChange = false
    /// Whether the observation's own entry is in a list of the root (then a change it hears comes with
    /// the root in hand). Written under `lock` before the entry joins its one list, read after.
    @exclusivity(unchecked) final var ownEntryOnRoot = false
    /// Whether a change of the root's property is re-wired from the setter's values rather than by
    /// evaluating the path (`rewire`): a two-property stored path, no `.prior`. Written as
    /// `ownEntryOnRoot` is.
    @exclusivity(unchecked) final var rewiresFromSetter = false
    /// Shared by the observations of this key path on this class; immortal, so held unmanaged.
    @usableFromInline final let plan: Unmanaged<PathPlan>

    @usableFromInline
    init(plan: PathPlan, options: ObservationOptions) {
        self.plan = Unmanaged.passUnretained(plan)
        self.requestedOptions = options
        // Without a leaf delivery, or with `.prior`, leaf changes are evaluated like any other.
        self.deliversLeafChanges = plan.hasLeafDelivery && !options.sendsPrior
        super.init(options: .prior, countsForWillChange: true) { entry, object, oldValue, newValue, mutation, stamp in
            let observation = unsafeDowncast(entry, to: PathObservationBase.self)
            guard observation.isActive else { return }
            if observation.rewiresFromSetter {
                return observation.rootPropertyChange(object, oldValue, newValue, stamp: stamp)
            }
            observation.forward(
                from: ObjectIdentifier(observation), root: observation.ownEntryOnRoot ? object : nil,
                isDidChange: newValue != nil, stamp: stamp, mutated: mutation != nil)
        }
    }

    /// Forwards a change heard by one of the path's entries; `root`: the root, when the change is of
    /// its own property; `mutated`: an in-place collection mutation.
    @inline(__always)
    final func forward(
        from source: ObjectIdentifier, root: AnyObject?, isDidChange: Bool, stamp: Int, mutated: Bool
    ) {
        if isDidChange {
            dependencyDidChange(from: source, root: root, stamp: stamp, leafOld: nil, mutated: mutated)
        } else {
            dependencyWillChange(from: source, root: root, stamp: stamp)
        }
    }

    @inlinable @inline(__always)
    final func withPlan<Result>(_ body: (PathPlan) -> Result) -> Result {
        plan._withUnsafeGuaranteedRef(body)
    }

    /// Calls `body` with what the plan keeps for re-wires to reuse.
    @inline(__always)
    final func withSpares<Result>(_ body: (RewireSpares) -> Result) -> Result {
        withPlan { $0.spares }._withUnsafeGuaranteedRef(body)
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

    /// Delivers an evaluated change of the path's value to `root`, which the caller holds (see `LeafDelivery`).
    final func deliverEvaluatedChange(
        _ root: AnyObject, _ old: BorrowedValue, _ new: BorrowedValue, _ mutation: CollectionMutation?
    ) {
        withPlan { $0.leafDelivery.evaluated(self, root, old, new, mutation) }
    }

    /// Whether the value before a change is kept: old value, `.prior`, `.distinct`, or a collection's
    /// comparison.
    final var keepsValueBeforeChange: Bool {
        requestedOptions.needsValueBeforeStore || withPlan { $0.describesCollectionChanges }
    }

    /// Whether the value before a change is needed when it is delivered.
    final var needsOldValue: Bool {
        requestedOptions.needsOldValue || withPlan { $0.describesCollectionChanges }
    }

    /// Before and after a change of one dependency, with `source` and the set's `stamp`, the same pair
    /// in both calls; `root`: the root when the caller holds it (its setter, for its own property).
    func dependencyWillChange(from source: ObjectIdentifier?, root: AnyObject?, stamp: Int) {}

    /// `leafOld`: a proven leaf's setter old value, whose new value cannot be trusted (`LeafPathLink`).
    func dependencyDidChange(
        from source: ObjectIdentifier?, root: AnyObject?, stamp: Int, leafOld: LeafOldValue?, mutated: Bool
    ) {}

    /// `dependencyDidChange` from a leaf link, without a root: apart, so that the link's call to it
    /// stays as short as the hot path around it needs.
    @inline(never)
    final func leafDidChange(from source: ObjectIdentifier, stamp: Int, leafOld: LeafOldValue, mutated: Bool) {
        dependencyDidChange(from: source, root: nil, stamp: stamp, leafOld: leafOld, mutated: mutated)
    }

    /// Before (`newValue` `nil`) and after a change of the root's property, with its setter's values,
    /// when `rewiresFromSetter`.
    func rootPropertyChange(_ root: AnyObject, _ oldValue: BorrowedValue, _ newValue: BorrowedValue?, stamp: Int) {}

    /// The list of an entry, `entry` its identity, ended: the list's instance was deallocated.
    func dependencyEnded(_ entry: ObjectIdentifier) {}

    /// The list the observation itself was in ended.
    override final func listEnded() { dependencyEnded(ObjectIdentifier(self)) }

    /// Whether this observes `keyPath` on `root` (for manual notification of a computed property).
    func observes(_ root: AnyObject, _ keyPath: AnyKeyPath) -> Bool { false }
}

// A path observation's changes in flight, nested in its base so that they are not generic.
extension PathObservationBase {
    /// One change of a path's dependency: the link it came through (`nil`: by hand) and the set's stamp.
    struct ChangeInFlight: Equatable {
        let source: ObjectIdentifier?
        let stamp: Int
    }

    /// A path observation's changes in flight, from `willChange` to `didChange`, with the path's old
    /// value taken at `willChange`; kept by change, so a nested change pairs with its own old value.
    /// Not generic, so no metadata lookup per change; whoever takes a `ValueBox` out consumes it.
    struct ChangesInFlight {
        /// A change in flight with how many times it began, an old value, or both: one array.
        private struct Record {
            let change: ChangeInFlight
            /// How many times `change` began; `0` in an old value's record.
            var count: Int
            var oldValue: ValueBox?
        }

        /// A few records at most, so searched linearly rather than hashed.
        private var records: [Record] = []

        /// How many changes are in flight (each begun and not finished, counted as often as it began).
        var inFlight: Int {
            var total = 0
            for record in records { total += record.count }
            return total
        }

        var isEmpty: Bool { !records.contains { $0.count > 0 } }

        /// Whether nothing is held: no change counted and no old value.
        var isClear: Bool { records.isEmpty }

        mutating func begin(_ change: ChangeInFlight) {
            if let index = records.firstIndex(where: { $0.count > 0 && $0.change == change }) {
                records[index].count += 1
            } else {
                records.append(Record(change: change, count: 1, oldValue: nil))
            }
        }

        mutating func recordOldValue(_ box: ValueBox, for change: ChangeInFlight) {
            records.append(Record(change: change, count: 0, oldValue: box))
        }

        /// `begin` and `recordOldValue` at once: one record when the change is not already in flight.
        mutating func begin(_ change: ChangeInFlight, keeping box: ValueBox) {
            guard records.contains(where: { $0.count > 0 && $0.change == change }) else {
                return records.append(Record(change: change, count: 1, oldValue: box))
            }
            begin(change)
            recordOldValue(box, for: change)
        }

        /// Ends `change`: its count, and its latest old value if one was recorded.
        mutating func finish(_ change: ChangeInFlight) -> ValueBox? {
            // The usual case, one change begun once with its old value: emptied at once, capacity kept.
            if records.count == 1, records[0].count == 1, records[0].change == change {
                return records.removeLast().oldValue
            }
            if let index = records.firstIndex(where: { $0.count > 0 && $0.change == change }) {
                if records[index].count > 1 {
                    records[index].count -= 1
                } else if records[index].oldValue == nil {
                    records.remove(at: index)
                } else {
                    records[index].count = 0  // its old value stays, as a record of its own
                }
            }
            guard let index = records.lastIndex(where: { $0.oldValue != nil && $0.change == change }) else {
                return nil
            }
            guard records[index].count == 0 else {
                // Still in flight: its count stays, its old value goes.
                let oldValue = records[index].oldValue
                records[index].oldValue = nil
                return oldValue
            }
            return records.remove(at: index).oldValue
        }

        /// Drops the changes that came through `sources` (links that are going): their old values.
        mutating func forget(_ sources: [ObjectIdentifier]) -> [ValueBox] {
            var dropped: [ValueBox] = []
            records.removeAll { record in
                guard let source = record.change.source, sources.contains(source) else { return false }
                if let box = record.oldValue { dropped.append(box) }
                return true
            }
            return dropped
        }

        /// Drops everything: the old values.
        mutating func removeAll() -> [ValueBox] {
            defer { records = [] }
            return records.compactMap(\.oldValue)
        }
    }
}
