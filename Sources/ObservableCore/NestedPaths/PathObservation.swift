import Synchronization

/// An observation of a nested path (`\.address?.city`) or a computed property, linked into the
/// list of every `@Observed` property the path last read. A change evaluates the path again and
/// re-links only if its dependencies differ; a proven path's leaf change skips the evaluation.
@usableFromInline
final class PathObservation<Root: AnyObject, Value>: PathObservationBase, @unchecked Sendable {
    /// Held weakly; written only in `init`.
    @usableFromInline weak let root: Root?
    @usableFromInline let handler: (Root, ObservedChange<Value>) -> Void
    /// Boxed: one word, where the optional function took two (most observations have none).
    private let onObservedDeallocated: DeallocationHookBox?
    /// One entry per dependency, in the order read. Guarded by `lock`.
    @exclusivity(unchecked) var links = PathLinks()
    /// Changes in flight, with the old values taken at `willChange`. Guarded by `lock`.
    @exclusivity(unchecked) var pending = ChangesInFlight()

    init(
        root: Root, plan: TypedPathPlan<Root, Value>, options: ObservationOptions,
        onObservedDeallocated: DeallocationHook?, handler: @escaping (Root, ObservedChange<Value>) -> Void
    ) {
        self.root = root
        self.onObservedDeallocated = onObservedDeallocated.map(DeallocationHookBox.init)
        self.handler = handler
        super.init(plan: plan, options: options)
    }

    private func evaluate(_ root: Root) -> Value {
        withPlan { unsafeDowncast($0, to: TypedPathPlan<Root, Value>.self).evaluate(root) }
    }

    override func observes(_ root: AnyObject, _ keyPath: AnyKeyPath) -> Bool {
        self.root === root && self.keyPath.object == keyPath
    }

    /// What the first evaluation of the path read: with tracking, each access (a proof reads them), or
    /// through the class's stored path, the lists (the first is the root's).
    enum FirstRead {
        case tracked([TrackedAccess])
        case stored([ObserverList], by: StoredPath)
    }

    /// Links the observation into the lists of the first evaluation; the caller ends it with
    /// `endIfUnlinked` after `.initial`.
    func register(_ read: FirstRead) {
        guard let root else { return }
        let (moved, dropped): (PathLinks.Moved, [ValueBox]?)
        switch read {
        case .tracked(let accesses):
            let leaf = proven(root, accesses)
            let lists = accesses.map(\.list)
            let firstOnRoot = accesses.first?.object === root
            rewiresFromSetter = leaf != nil && firstOnRoot && storedPath?.rewiresFromSetter == true
            (moved, dropped) = lock.withLock { relink(to: lists, leaf: leaf, firstOnRoot: firstOnRoot) }
        case .stored(let lists, let storedPath):
            learn(storedPath)
            let leaf = deliversLeafChanges ? storedPath.leaf(afterReading: lists.count) : nil
            rewiresFromSetter = deliversLeafChanges && storedPath.rewiresFromSetter
            (moved, dropped) = lock.withLock { relink(to: lists, leaf: leaf, firstOnRoot: true) }
        }
        if let dropped {
            for box in dropped { free(box) }
        }
        withExtendedLifetime(moved) {}
    }

    /// Ends the observation if it is linked nowhere: nothing could notify it.
    func endIfUnlinked() {
        if lock.withLock({ links.isEmpty }) { end() }
    }

    /// Whether the path, as it read `accesses`, is proven (`PathProof`); learns the stored path.
    private func proven(_ root: Root, _ accesses: [TrackedAccess]) -> LeafConversion? {
        guard deliversLeafChanges,
            let proof = PathProof.proof(of: keyPath.object, root: root, accesses: accesses, valueType: Value.self)
        else { return nil }
        if let stored = proof.stored { learn(stored) }
        return proof.leaf
    }

    /// The path's value (boxed, for the caller to free), its reads (a record to give back to the plan)
    /// and leaf conversion: through the stored path, else with tracking.
    private func read(_ root: Root, _ spares: RewireSpares) -> (
        value: ValueBox, record: AccessRecord, leaf: LeafConversion?
    ) {
        let record = spares.accesses.take()
        if let stored = storedPath, let end = stored.read(root, recording: &record.lists) {
            record.firstOnRoot = true
            let leaf = deliversLeafChanges ? stored.leaf(afterReading: record.lists.count) : nil
            let value = ValueBox(of: Value.self, in: spares.cells) { stored.initialize($0, at: end, as: Value.self) }
            return (value, record, leaf)
        }
        // A stored read that gave up may have recorded some lists.
        record.empty()
        let (value, accesses) = Tracking.evaluate { evaluate(root) }
        for access in accesses { record.lists.append(access.list) }
        record.firstOnRoot = accesses.first?.object === root
        return (ValueBox(value, in: spares.cells), record, proven(root, accesses))
    }

    private func currentValue(_ root: Root) -> Value {
        if let stored = storedPath, let end = stored.read(root) { return stored.value(at: end, as: Value.self) }
        return Tracking.untracked { evaluate(root) }
    }

    func deliverInitial(_ root: Root, _ value: Value) {
        deliver(root, requestedOptions.initialChange(value, keyPath: keyPath))
    }

    override func didCancel() {
        detachAll()
    }

    override func summary() -> ObservationSummary? {
        ObservationSummary(
            keyPath: keyPath.object, options: requestedOptions, origin: origin, isPath: true,
            root: root.map { (ObjectIdentifier($0), type(of: $0)) })
    }

    private func endForDeallocatedRoot() {
        if end() { onObservedDeallocated?.hook() }
    }

    /// Ends the observation once, before the last links (its owners) go; `true` for the call that did.
    @discardableResult
    private func end() -> Bool {
        guard claimEnd() else { return false }
        detachAll()
        return true
    }

    private func detachAll() {
        let (detached, oldValues) = lock.withLock { () -> (LinkStorage, [ValueBox]) in
            let detached = links.detachAll(owner: self)
            let values = pending.removeAll()
            pendingDidChange()
            return (detached, values)
        }
        // Released after the lock: the last references to links, old values and what they hold.
        for box in oldValues { free(box) }
        withExtendedLifetime(detached) {}
    }

    deinit {
        for box in pending.removeAll() { free(box) }
    }

    // A change of the root's own property is told with the root, held by its setter: used as it is,
    // not loaded from the weak reference, whose side table makes each retain and release slow.
    override func dependencyWillChange(from source: ObjectIdentifier?, root heldRoot: AnyObject?, stamp: Int) {
        guard isActive else { return }
        if heldRoot != nil {
            return willChange(unsafeDowncast(heldRoot.unsafelyUnwrapped, to: Root.self), from: source, stamp: stamp)
        }
        willChangeLoadingRoot(from: source, stamp: stamp)
    }

    /// Apart, so that the compiler does not retain a root in hand to join this branch's loaded one.
    @inline(never)
    private func willChangeLoadingRoot(from source: ObjectIdentifier?, stamp: Int) {
        guard let root else { return }
        willChange(root, from: source, stamp: stamp)
    }

    func willChange(_ root: Root, from source: ObjectIdentifier?, stamp: Int) {
        let change = ChangeInFlight(source: source, stamp: stamp)
        if let source {
            lock.withLock {
                guard links.listID(from: source, owner: self) != nil else { return }
                pending.begin(change)
                pendingDidChange()
            }
        }
        guard keepsValueBeforeChange else { return }
        if !requestedOptions.sendsPrior, let stored = storedPath, let end = stored.read(root) {
            let box = withSpares {
                ValueBox(of: Value.self, in: $0.cells) { stored.initialize($0, at: end, as: Value.self) }
            }
            lock.withLock { pending.recordOldValue(box, for: change) }
            return
        }
        let oldValue = currentValue(root)
        if needsOldValue {
            let box = withSpares { ValueBox(oldValue, in: $0.cells) }
            lock.withLock { pending.recordOldValue(box, for: change) }
        }
        if requestedOptions.sendsPrior { deliverPrior(root, oldValue) }
    }

    /// Out of line, so that the type metadata it needs is looked up only for `.prior`.
    @inline(never)
    private func deliverPrior(_ root: Root, _ oldValue: Value) {
        deliver(root, requestedOptions.contents(old: oldValue, new: nil, isPrior: true, keyPath: keyPath))
    }

    /// Evaluates, re-links and delivers, unless the change's property is no longer read while another
    /// change is in flight: that change will deliver the move.
    override func dependencyDidChange(
        from source: ObjectIdentifier?, root heldRoot: AnyObject?, stamp: Int, leafOld: LeafOldValue?, mutated: Bool
    ) {
        guard isActive else { return }
        if heldRoot != nil {
            return didChange(
                unsafeDowncast(heldRoot.unsafelyUnwrapped, to: Root.self), from: source, stamp: stamp, leafOld: leafOld,
                mutated: mutated)
        }
        didChangeLoadingRoot(from: source, stamp: stamp, leafOld: leafOld, mutated: mutated)
    }

    /// Apart, as `willChangeLoadingRoot` is.
    @inline(never)
    private func didChangeLoadingRoot(from source: ObjectIdentifier?, stamp: Int, leafOld: LeafOldValue?, mutated: Bool)
    {
        guard let root else {
            // The root was deallocated while an intermediate object lives on.
            return endForDeallocatedRoot()
        }
        didChange(root, from: source, stamp: stamp, leafOld: leafOld, mutated: mutated)
    }

    func didChange(
        _ root: Root, from source: ObjectIdentifier?, stamp: Int, leafOld: LeafOldValue?, mutated: Bool
    ) {
        let spares = withPlan { $0.spares }.takeUnretainedValue()
        let (newValue, record, leaf) = read(root, spares)
        typealias Outcome = (
            oldBox: ValueBox?, stale: LinkStorage, dropped: [ValueBox]?,
            unlinked: Bool, delivers: Bool
        )
        let outcome = lock.withLock { () -> Outcome? in
            // A link detached since its `notify` began (by another thread) forwards nothing.
            var sourceList: ObjectIdentifier?
            if let source {
                guard let list = links.listID(from: source, owner: self) else { return nil }
                sourceList = list
            }
            let oldBox = pending.finish(ChangeInFlight(source: source, stamp: stamp))
            guard isActive else { return (oldBox, LinkStorage(), nil, false, false) }
            let (moved, dropped) = relink(to: record.lists, leaf: leaf, firstOnRoot: record.firstOnRoot)
            let stale = moved.stale
            pendingDidChange()
            let delivers =
                sourceList.map { list in record.lists.contains { ObjectIdentifier($0) == list } } ?? true
                || pending.isEmpty
            return (oldBox, stale, dropped, links.isEmpty, delivers)
        }
        spares.accesses.giveBack(record)
        guard let outcome else { return free(newValue, spares) }
        if let dropped = outcome.dropped {
            for box in dropped { free(box, spares) }
        }
        if outcome.delivers {
            // With `leafOld`, the path read the leaf when this set began: the setter's old value was the path's.
            deliverEvaluated(
                root, newValue, oldBox: outcome.oldBox, leafOld: needsOldValue ? leafOld : nil, mutated: mutated,
                spares)
        } else {
            free(outcome.oldBox, spares)
            free(newValue, spares)
        }
        // No dependency left: ended before the stale links, which own the observation, are released.
        if outcome.unlinked { end() }
        withExtendedLifetime(outcome.stale) {}
    }

    /// Under `lock`: publishes `pending`'s count, and makes the leaf link hear `willChange` exactly
    /// while changes are in flight.
    @inline(__always)
    func pendingDidChange() {
        let inFlight = pending.inFlight
        hasChangesInFlight.store(inFlight != 0, ordering: .releasing)
        let hears = inFlight != 0
        guard hears != leafHearsWillChange else { return }
        leafHearsWillChange = hears
        links.setLeafHearsWillChange(hears)
    }

    override func dependencyEnded(_ link: ObjectIdentifier) {
        let (removed, dropped, unlinked) = lock.withLock { () -> (PathLink?, [ValueBox], Bool) in
            let (found, removed) = links.remove(link, owner: self)
            guard found else { return (nil, [], links.isEmpty) }
            let dropped = pending.forget([link])
            pendingDidChange()
            return (removed, dropped, links.isEmpty)
        }
        for box in dropped { free(box) }
        // A root being deallocated reads nil, and losing the last dependency leaves nothing to notify.
        if root == nil {
            endForDeallocatedRoot()
        } else if unlinked {
            end()
        }
        withExtendedLifetime(removed) {}
    }

    override func rootPropertyChange(
        _ root: AnyObject, _ oldValue: BorrowedValue, _ newValue: BorrowedValue?, stamp: Int
    ) {
        let root = unsafeDowncast(root, to: Root.self)
        if let newValue {
            rewire(root, to: newValue, stamp: stamp)
        } else {
            rewireWillBegin(root, from: oldValue, stamp: stamp)
        }
    }

    /// Under `lock`: moves the entries (`PathLinks.move`); returns what to release after unlocking.
    private func relink(
        to lists: [ObserverList], leaf: LeafConversion?, firstOnRoot: Bool
    ) -> (moved: PathLinks.Moved, dropped: [ValueBox]?) {
        let moved = links.move(to: lists, leaf: leaf, for: self, firstOnRoot: firstOnRoot)
        return (moved, settle(moved))
    }

    /// Under `lock`, after `move` or `moveLeaf`: the old values of changes that came through entries
    /// now gone, to free after unlocking.
    @inline(__always)
    func settle(_ moved: borrowing PathLinks.Moved) -> [ValueBox]? {
        if moved.attachedLeaf { leafHearsWillChange = false }
        guard !moved.isEmpty, !pending.isClear else { return nil }
        var left = moved.stale.map { ObjectIdentifier($0) }
        if moved.retiredOwn { left.append(ObjectIdentifier(self)) }
        return pending.forget(left)
    }
}
