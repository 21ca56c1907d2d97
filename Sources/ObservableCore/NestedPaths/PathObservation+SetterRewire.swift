/// A change of the root's property re-wired from its setter's values (`rewiresFromSetter`): the
/// path's old value read through the setter's old object, the new one through the object now in the
/// root (a nested set may have replaced the setter's), the leaf link moved to that object's list, and
/// the change delivered typed, with no evaluation and no record of the lists read.
extension PathObservation {
    /// Before the store: the change counted in flight, so that the leaf's setters evaluate the path
    /// rather than deliver their values as its own, and the old value kept for `rewire`.
    func rewireWillBegin(_ root: Root, from oldValue: BorrowedValue, stamp: Int) {
        withStoredPath { rewireWillBegin(root, from: oldValue, stamp: stamp, through: $0) }
    }

    private func rewireWillBegin(_ root: Root, from oldValue: BorrowedValue, stamp: Int, through stored: StoredPath) {
        let own = ObjectIdentifier(self)
        guard keepsValueBeforeChange, let old = stored.intermediate(in: oldValue) else {
            return willChange(root, from: own, stamp: stamp)
        }
        let box = withSpares { spares in
            ValueBox(of: Value.self, in: spares.cells) { stored.initializeValue($0, through: old) }
        }
        let kept = lock.withLock { () -> Bool in
            guard links.listID(from: own, owner: self) != nil else { return false }
            let change = ChangeInFlight(source: own, stamp: stamp)
            pending.begin(change, keeping: box)
            pendingDidChange()
            return true
        }
        if !kept { free(box) }
    }

    /// After the store: the leaf link moved to the list of the intermediate object now in the root
    /// (the setter's new one while no later set of the property has begun), and the change delivered;
    /// a class the stored path does not read is evaluated instead.
    func rewire(_ root: Root, to newValue: BorrowedValue, stamp: Int) {
        withStoredPath { rewire(root, to: newValue, stamp: stamp, through: $0) }
    }

    private func rewire(_ root: Root, to newValue: BorrowedValue, stamp: Int, through stored: StoredPath) {
        if stored.isLatestSet(stamp, of: root) {
            return rewire(root, to: stored.intermediate(in: newValue), stamp: stamp, through: stored)
        }
        stored.withIntermediate(of: root) { rewire(root, to: $0, stamp: stamp, through: stored) }
    }

    /// `now`: the intermediate object the leaf link moves to, which the caller keeps alive; `nil`:
    /// one the stored path does not read.
    private func rewire(_ root: Root, to now: StoredPath.Intermediate?, stamp: Int, through stored: StoredPath) {
        let own = ObjectIdentifier(self)
        guard let now else {
            return didChange(root, from: own, stamp: stamp, leafOld: nil, mutated: false)
        }
        let list = stored.leafList(in: now)
        typealias Outcome = (oldBox: ValueBox?, stale: LinkStorage, dropped: [ValueBox]?, delivers: Bool)
        let outcome = lock.withLock { () -> Outcome? in
            // The observation's own entry left the root's list: a stale change.
            guard links.listID(from: own, owner: self) != nil else { return nil }
            let oldBox = pending.finish(ChangeInFlight(source: own, stamp: stamp))
            guard isActive else { return (oldBox, LinkStorage(), nil, false) }
            let moved = links.moveLeaf(to: list, leaf: stored.leaf, for: self)
            let dropped = settle(moved)
            pendingDidChange()
            return (oldBox, moved.stale, dropped, true)
        }
        guard let outcome else { return }
        if let dropped = outcome.dropped {
            for box in dropped { free(box) }
        }
        if outcome.delivers {
            // Without a kept old value none is asked for (`keepsValueBeforeChange`): the new one stands in.
            withPlan {
                $0.leafDelivery.rewired(self, root, outcome.oldBox?.address) {
                    stored.initializeValue($0, through: now)
                }
            }
            if let oldBox = outcome.oldBox { withSpares { oldBox.giveBackDestroyed(into: $0.cells) } }
        } else {
            free(outcome.oldBox)
        }
        withExtendedLifetime(outcome.stale) {}
    }

    /// The stored path, which `rewiresFromSetter` says the plan has learnt, without a retain: a plan
    /// and what it learnt live for ever.
    @inline(__always)
    private func withStoredPath(_ body: (StoredPath) -> Void) {
        withPlan { $0.storedPath.unmanaged.unsafelyUnwrapped }._withUnsafeGuaranteedRef(body)
    }
}
