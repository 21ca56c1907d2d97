import Synchronization

/// Something that depends on properties found by tracking: told before and after each of them
/// changes, and when one of their instances is deallocated.
protocol PathDependent: AnyObject, Sendable {
    /// Whether `dependencyWillChange` is wanted (old values or `.prior` notifications).
    var wantsWillChange: Bool { get }
    /// Before and after a change of one dependency, told by `source` (a link's identity, or `nil`
    /// for a change announced by hand) with the set's `stamp` (`ObserverList.stamp`): the two calls
    /// of one change carry the same pair.
    func dependencyWillChange(from source: ObjectIdentifier?, stamp: Int)
    /// `leafOld`: from the last property's link of a proven path whose setter's new value cannot be
    /// trusted (see `PathLink`), that setter's old value; the path is then evaluated for the new one.
    func dependencyDidChange(from source: ObjectIdentifier?, stamp: Int, leafOld: LeafOldValue?)
    /// Delivers a change of the last property of a path proven to be pure navigation (see
    /// `PathProof`), called with this dependent; `nil` where there is none.
    var leafDelivery: LeafDelivery? { get }
    func dependencyEnded(_ link: any DependencyLink)
    /// Whether this observes `keyPath` on `root` (for manual notification of a computed property).
    func observes(_ root: AnyObject, _ keyPath: AnyKeyPath) -> Bool
}

/// The old value a proven path's last property had before a set, as its setter passed it, and how
/// the path's value is made from it (see `LeafConversion`).
struct LeafOldValue {
    let pointer: UnsafeRawPointer
    let wrap: LeafWrap
    let wraps: Bool
}

/// One change of a path's dependency, between its `willChange` and its `didChange`: the link it
/// came through (`nil`: announced by hand) and the set's stamp. (At file scope: nested in the generic
/// `PathObservation`, it would be a generic type, its metadata looked up at every use.)
private struct PendingChange: Hashable {
    let source: ObjectIdentifier?
    let stamp: Int
}

/// An old value taken at a dependency's `willChange`, boxed in memory laid out for the path's
/// `Value`, waiting for that change's `didChange`.
private struct PendingOldValue {
    let change: PendingChange
    let box: UnsafeMutableRawPointer
}

/// The part of a path observation that its links read without its lock.
@usableFromInline
class PathObservationCore: ObservationCore, @unchecked Sendable {
    /// Changes of the path's dependencies that have begun (their `willChange` reached a link) and are
    /// not yet handled (the path evaluated and re-linked). While there are any, the path may already
    /// have moved off the object of its last property's link.
    final let intermediatesInFlight = Atomic<Int>(0)

    @usableFromInline
    override init() {
        super.init()
    }
}

/// The registration of a `PathDependent` in one property's list.
protocol DependencyLink: AnyObject, Sendable {
    /// Identity of the list the link sits in (one per instance and property).
    var listID: ObjectIdentifier { get }
    /// Whether the link delivers its property's values as the path's (see `PathLink`).
    var deliversLeaf: Bool { get }
    /// Removes the link from its list; idempotent.
    func detach()
    /// For a leaf link: whether sets of its property run the `willChange` pass (see `PathLink`).
    func setHearsWillChange(_ hears: Bool)
}

/// A list entry that forwards a property's changes to a path observation. Usually the values are
/// unused: the path is evaluated again, which gives its own old and new values. The link of the last
/// property of a path proven to be pure navigation (`leaf` given, see `PathProof`) forwards the
/// setter's values instead; it trusts them only when they are still the path's: its set is the
/// property's latest (`ObserverList.stamp`) and no other change of the path is in flight
/// (`PathObservationCore.intermediatesInFlight`, which the other links count from `willChange`).
/// Otherwise the path is evaluated. While a change is in flight the path may not read this property
/// at the moment, so a set of it beginning then records the path's value before the set, as the
/// other links do: for that, the path makes its leaf link count in the list's `willChangeCount`
/// only while something is in flight, so that a set of the leaf otherwise skips the `willChange`
/// pass altogether.
///
/// Once detached (the path moved off this property, or ended) a link forwards nothing, not even a
/// change already being delivered: its `state` turns `0`, as a cancelled observation's does.
final class PathLink: ListEntry, DependencyLink, @unchecked Sendable {
    let list: ObserverList
    let dependent: PathObservationCore & PathDependent
    /// The dependent's `leafDelivery` when this link delivers leaf changes (`deliversLeaf`), else a
    /// function never called. Not optional: calling a `let` function in place needs no retain of
    /// its context, where unwrapping an optional one into a local retained and released it per change.
    private let leafDelivery: LeafDelivery
    let deliversLeaf: Bool
    /// The leaf conversion's `wrap` when it has one (`wraps`), else a function never called (not
    /// optional, like `leafDelivery`).
    private let wrap: LeafWrap
    private let wraps: Bool
    /// `dependent`, which this link holds, unretained: passing the existential retained and released
    /// the observation on every change.
    private let target: Unmanaged<PathObservationCore>

    init(list: ObserverList, dependent: PathObservationCore & PathDependent, leaf: LeafConversion?) {
        self.list = list
        self.dependent = dependent
        if leaf != nil, let delivery = dependent.leafDelivery {
            self.leafDelivery = delivery
            self.deliversLeaf = true
        } else {
            self.leafDelivery = Self.noDelivery
            self.deliversLeaf = false
        }
        if let wrap = leaf?.wrap {
            self.wrap = wrap
            self.wraps = true
        } else {
            self.wrap = Self.noWrap
            self.wraps = false
        }
        self.target = Unmanaged.passUnretained(dependent)
        // Every link can hear `willChange`: the path counts the changes in flight. A leaf's is
        // counted in the list only while the path has one (`setHearsWillChange`).
        super.init(options: .prior, countsForWillChange: leaf == nil) { entry, _, oldValue, newValue, _, stamp in
            let link = unsafeDowncast(entry, to: PathLink.self)
            guard link.isActive else { return }
            if let newValue {
                if link.deliversLeaf {
                    // A later set of the property (in a callback before this link, or on another
                    // thread), or an intermediate change the path has not handled yet, makes the
                    // setter's new value possibly not the path's: then the path is evaluated.
                    let trusted = (stamp == ObserverList.unstamped || link.list.stamp == stamp) && !link.changesInFlight
                    if trusted {
                        link.target._withUnsafeGuaranteedRef { link.leafDelivery($0, oldValue, newValue, link.wrap, link.wraps) }
                    } else {
                        link.dependent.dependencyDidChange(
                            from: ObjectIdentifier(link), stamp: stamp,
                            leafOld: LeafOldValue(pointer: oldValue, wrap: link.wrap, wraps: link.wraps))
                    }
                } else {
                    link.dependent.dependencyDidChange(from: ObjectIdentifier(link), stamp: stamp, leafOld: nil)
                }
            } else if !link.deliversLeaf || link.changesInFlight {
                link.dependent.dependencyWillChange(from: ObjectIdentifier(link), stamp: stamp)
            }
        }
    }

    private static func noDelivery(_: AnyObject, _: UnsafeRawPointer, _: UnsafeRawPointer, _: LeafWrap, _: Bool) {}
    private static func noWrap(_: UnsafeRawPointer, _: UnsafeMutableRawPointer) {}

    var listID: ObjectIdentifier { ObjectIdentifier(list) }

    /// Whether another change of the path is in flight (see `PathObservationCore`).
    private var changesInFlight: Bool {
        target._withUnsafeGuaranteedRef { $0.intermediatesInFlight.load(ordering: .acquiring) != 0 }
    }

    func detach() {
        state.store(0, ordering: .releasing)
        list.remove(self)
    }

    func setHearsWillChange(_ hears: Bool) {
        list.setCountsForWillChange(self, hears)
    }

    override func listEnded() { dependent.dependencyEnded(self) }
}

/// An observation of a key path that is not a single `@Observed` property of the root: a nested path
/// (`\.address?.city`), or a computed property that reads `@Observed` ones.
///
/// It is linked into the list of every `@Observed` property the path read when last evaluated. On a
/// change of any of them the path is evaluated again with tracking, which gives the new value and
/// the new dependencies; links move only if the dependencies differ (an intermediate object was
/// replaced), so the old intermediate stops notifying and the new one starts.
///
/// A change of the last property of a path proven to be pure navigation (see `PathProof`) is
/// delivered from the setter's own values, without evaluation, by `deliverLeaf`, which is specialised
/// where `observe` is called (this class's own code is not).
@usableFromInline
final class PathObservation<Root: AnyObject, Value>: PathObservationCore, PathDependent, @unchecked Sendable {
    /// Held weakly: observing never keeps the observed object alive. Written only in `init`; a
    /// `weak let` where the compiler has them (Swift 6.2), else without run-time exclusivity checks
    /// (each read from the specialised `deliverLeaf` cost one).
    #if compiler(>=6.2)
    @usableFromInline weak let root: Root?
    #else
    @usableFromInline @exclusivity(unchecked) weak var root: Root?
    #endif
    /// What the changes carry and `observes` compares; the value is read by `evaluate`.
    @usableFromInline let keyPath: InternedKeyPath
    /// Reads the path's value (`root[keyPath: keyPath]`, or a string path's resolution); run with
    /// tracking, every `@Observed` property it reads is a dependency.
    private let evaluate: (Root) -> Value
    @usableFromInline let options: ObservationOptions
    @usableFromInline let handler: (Root, ObservedChange<Value>) -> Void
    private let onObservedDeallocated: DeallocationHook?
    /// `deliverLeaf`, specialised by the `@inlinable` caller of `observe`; `nil` where the path is
    /// not `root[keyPath: keyPath]` (string key paths) or the caller built none. Without it, or with
    /// `.prior` asked for, leaf changes are evaluated like any other.
    let leafDelivery: LeafDelivery?

    private let lock = Lock()
    // Guarded by `lock`, so Swift's run-time exclusivity checks are off.
    /// One link per dependency, in the order the path read them.
    @exclusivity(unchecked) private var links: [any DependencyLink] = []
    /// Old values taken before a dependency's store, consumed after it, each with the source that
    /// took it (a stack, because a callback may set a dependency again before the outer change
    /// completes; by source, so that a link detached in between takes its value with it and never
    /// hands it to another change). Each is boxed by hand in memory laid out for `Value`: this code is
    /// not specialised, and an `[Value]` needed metadata and witness-table lookups per change.
    @exclusivity(unchecked) private var pendingOldValues: [PendingOldValue] = []

    /// The changes counted in `intermediatesInFlight` (so that a link detached before its
    /// `didChange` takes its count with it); a change announced by hand twice at once counts twice.
    @exclusivity(unchecked) private var intermediatesPending: [PendingChange: Int] = [:]
    /// Whether the leaf link hears `willChange` (it does while `intermediatesPending` is not empty).
    @exclusivity(unchecked) private var leafHearsWillChange = false

    init(root: Root, keyPath: InternedKeyPath, evaluate: @escaping (Root) -> Value, options: ObservationOptions,
         onObservedDeallocated: DeallocationHook?, leafDelivery: LeafDelivery?,
         handler: @escaping (Root, ObservedChange<Value>) -> Void) {
        self.root = root
        self.keyPath = keyPath
        self.evaluate = evaluate
        self.options = options
        self.onObservedDeallocated = onObservedDeallocated
        self.leafDelivery = options.contains(.prior) ? nil : leafDelivery
        self.handler = handler
        super.init()
    }

    var wantsWillChange: Bool { options.contains(.old) || options.contains(.prior) }

    func observes(_ root: AnyObject, _ keyPath: AnyKeyPath) -> Bool {
        self.root === root && self.keyPath.object == keyPath
    }

    /// Links the observation into the lists found by the first evaluation. The caller holds the
    /// observation, and ends it with `endIfUnlinked` once it has delivered `.initial`.
    func register(_ accesses: [TrackedAccess]) {
        guard let root else { return }
        let leaf = leafConversion(root, accesses)
        let (stale, dropped) = lock.withLock { relink(to: accesses, leaf: leaf) }
        for box in dropped { Self.destroy(box) }
        withExtendedLifetime(stale) {}
    }

    /// Ends the observation if it is linked nowhere: nothing could ever notify it, and nothing but
    /// its caller owns it (see `ObservationCore`: it must have ended before that reference goes).
    func endIfUnlinked() {
        if lock.withLock({ links.isEmpty }) { end() }
    }

    /// Whether the path, as it read `accesses`, is proven to end in the last of them, and how its
    /// value is made from that property's (see `PathProof`).
    private func leafConversion(_ root: Root, _ accesses: [TrackedAccess]) -> LeafConversion? {
        guard leafDelivery != nil else { return nil }
        return PathProof.leafConversion(of: keyPath.object, root: root, accesses: accesses, valueType: Value.self)
    }

    /// Delivers a change of the path's last property (see `PathProof`) with the setter's values, of
    /// that property's type: the path's value is that value, or (`wrap`) that value made optional.
    /// Specialised where `observe` is called, through the `leafDelivery` function built there.
    @inlinable
    func deliverLeaf(_ old: UnsafeRawPointer, _ new: UnsafeRawPointer, _ wrap: LeafWrap, wraps: Bool) {
        guard isActive, let root else { return }
        if wraps {
            withUnsafeTemporaryAllocation(of: Value.self, capacity: 2) { values in
                let base = values.baseAddress.unsafelyUnwrapped
                wrap(old, UnsafeMutableRawPointer(base))
                wrap(new, UnsafeMutableRawPointer(base + 1))
                deliverLeaf(root, base, base + 1)
                base.deinitialize(count: 2)
            }
        } else {
            deliverLeaf(root, old.assumingMemoryBound(to: Value.self), new.assumingMemoryBound(to: Value.self))
        }
    }

    @inlinable
    func deliverLeaf(_ root: Root, _ old: UnsafePointer<Value>, _ new: UnsafePointer<Value>) {
        handler(root, options.change(old: old.pointee, new: new.pointee, isPrior: false, keyPath: keyPath))
    }

    func deliverInitial(_ root: Root, _ value: Value) {
        deliver(root, options.change(old: nil, new: value, isPrior: false, keyPath: keyPath))
    }

    override func didCancel() {
        detachAll()
    }

    /// Ends the observation because its root was deallocated.
    private func endForDeallocatedRoot() {
        if end() { onObservedDeallocated?() }
    }

    /// Ends the observation once; `true` for the call that ended it. Called before the last links
    /// go (they own the observation; see `ObservationCore` for why that order matters).
    @discardableResult
    private func end() -> Bool {
        guard claimEnd() else { return false }
        detachAll()
        return true
    }

    /// Detaches every link and drops the pending old values, after the observation has ended.
    private func detachAll() {
        let (detached, oldValues) = lock.withLock { () -> ([any DependencyLink], [UnsafeMutableRawPointer]) in
            var taken: [any DependencyLink] = []
            var values: [UnsafeMutableRawPointer] = []
            swap(&taken, &links)
            values = pendingOldValues.map(\.box)
            pendingOldValues = []
            intermediatesPending = [:]
            intermediatesInFlight.store(0, ordering: .releasing)
            leafHearsWillChange = false
            for link in taken { link.detach() }
            return (taken, values)
        }
        // Released after the lock: the last references to links, old values and what they hold.
        for box in oldValues { Self.destroy(box) }
        withExtendedLifetime(detached) {}
    }

    deinit {
        for pending in pendingOldValues { Self.destroy(pending.box) }
    }

    private static func box(_ value: Value) -> UnsafeMutableRawPointer {
        let box = UnsafeMutablePointer<Value>.allocate(capacity: 1)
        box.initialize(to: value)
        return UnsafeMutableRawPointer(box)
    }

    private static func unbox(_ box: UnsafeMutableRawPointer) -> Value {
        defer { box.deallocate() }
        return box.assumingMemoryBound(to: Value.self).move()
    }

    private static func destroy(_ box: UnsafeMutableRawPointer) {
        box.assumingMemoryBound(to: Value.self).deinitialize(count: 1)
        box.deallocate()
    }

    func dependencyWillChange(from source: ObjectIdentifier?, stamp: Int) {
        guard isActive, let root else { return }
        let change = PendingChange(source: source, stamp: stamp)
        if let source {
            // A change begins that may move the path.
            lock.withLock {
                guard links.contains(where: { ObjectIdentifier($0) == source }) else { return }
                intermediatesPending[change, default: 0] += 1
                intermediatesInFlight.add(1, ordering: .releasing)
                updateLeafWillChange()
            }
        }
        guard options.contains(.old) || options.contains(.prior) else { return }
        let oldValue = Tracking.untracked { evaluate(root) }
        if options.contains(.old) {
            let pending = PendingOldValue(change: change, box: Self.box(oldValue))
            lock.withLock { pendingOldValues.append(pending) }
        }
        if options.contains(.prior) { deliverPrior(root, oldValue) }
    }

    /// Out of line, so that the type metadata it needs is looked up only for `.prior`.
    @inline(never)
    private func deliverPrior(_ root: Root, _ oldValue: Value) {
        deliver(root, options.change(old: oldValue, new: nil, isPrior: true, keyPath: keyPath))
    }

    /// Evaluates the path, re-links it, and delivers the change, unless the link it came from is no
    /// longer the path's, or the path no longer reads its property while another change of the path
    /// is in flight (the path moved off it by a change it has yet to hear, which will deliver the
    /// move): a change of a property reaches a path only while the path reads that property, or
    /// when nothing else would tell it (it moved through a property that is not `@Observed`).
    func dependencyDidChange(from source: ObjectIdentifier?, stamp: Int, leafOld: LeafOldValue?) {
        guard isActive else { return }
        guard let root else {
            // The root was deallocated while an intermediate object lives on.
            endForDeallocatedRoot()
            return
        }
        let (newValue, accesses) = Tracking.evaluate { evaluate(root) }
        let leaf = leafConversion(root, accesses)
        typealias Outcome = (
            oldBox: UnsafeMutableRawPointer?, stale: [any DependencyLink], dropped: [UnsafeMutableRawPointer],
            unlinked: Bool, delivers: Bool)
        let outcome = lock.withLock { () -> Outcome? in
            // A link detached since its `notify` began (by another thread) forwards nothing.
            var sourceList: ObjectIdentifier?
            if let source {
                guard let link = links.first(where: { ObjectIdentifier($0) == source }) else { return nil }
                sourceList = link.listID
            }
            let change = PendingChange(source: source, stamp: stamp)
            let oldBox = pendingOldValues.lastIndex { $0.change == change }.map { pendingOldValues.remove(at: $0).box }
            guard isActive else { return (oldBox, [], [], false, false) }
            let (stale, dropped) = relink(to: accesses, leaf: leaf)
            settleIntermediate(change)
            updateLeafWillChange(relinked: !stale.isEmpty)
            let delivers = sourceList.map { list in accesses.contains { $0.listID == list } } ?? true
                || intermediatesPending.isEmpty
            return (oldBox, stale, dropped, links.isEmpty, delivers)
        }
        guard let outcome else { return }
        for box in outcome.dropped { Self.destroy(box) }
        // Built directly rather than through `options.change` and `Optional.map`: in this
        // unspecialised code their closures cost more than the rest of the delivery.
        var oldValue: Value?
        if let oldBox = outcome.oldBox {
            oldValue = Self.unbox(oldBox)
        } else if let leafOld, options.contains(.old) {
            // The path read the leaf when this set began (nothing was in flight): the setter's old
            // value was the path's.
            oldValue = Self.value(from: leafOld)
        }
        if outcome.delivers {
            deliver(root, ObservedChange(
                kind: .setting, oldValue: oldValue, newValue: options.contains(.new) ? newValue : nil, isPrior: false,
                keyPath: keyPath, mutation: nil))
        }
        // No dependency left (a computed property that now reads no `@Observed` one): this change
        // was the last. Ended before the stale links, which own the observation, are released.
        if outcome.unlinked { end() }
        withExtendedLifetime(outcome.stale) {}
    }

    /// The path's value made from a proven leaf's old value, as its setter passed it.
    private static func value(from leafOld: LeafOldValue) -> Value {
        guard leafOld.wraps else { return leafOld.pointer.assumingMemoryBound(to: Value.self).pointee }
        return withUnsafeTemporaryAllocation(of: Value.self, capacity: 1) { buffer in
            let base = buffer.baseAddress.unsafelyUnwrapped
            leafOld.wrap(leafOld.pointer, UnsafeMutableRawPointer(base))
            return base.move()
        }
    }

    /// Under `lock`: makes the leaf link hear `willChange` exactly while changes are in flight (a
    /// new leaf link, after a re-link, starts without). Lock order: this lock, then a list's.
    private func updateLeafWillChange(relinked: Bool = false) {
        let hears = !intermediatesPending.isEmpty
        guard hears != leafHearsWillChange || (relinked && hears) else { return }
        leafHearsWillChange = hears
        for link in links where link.deliversLeaf { link.setHearsWillChange(hears) }
    }

    /// Under `lock`: one counted change is handled.
    private func settleIntermediate(_ change: PendingChange) {
        guard let pending = intermediatesPending[change] else { return }
        intermediatesPending[change] = pending > 1 ? pending - 1 : nil
        intermediatesInFlight.subtract(1, ordering: .releasing)
    }

    /// Under `lock`: links that are going take their counted changes with them.
    private func forgetIntermediates(of sources: Set<ObjectIdentifier>) {
        for (change, pending) in intermediatesPending {
            guard let source = change.source, sources.contains(source) else { continue }
            intermediatesPending[change] = nil
            intermediatesInFlight.subtract(pending, ordering: .releasing)
        }
    }

    func dependencyEnded(_ link: any DependencyLink) {
        let (removed, dropped, unlinked) = lock.withLock { () -> ((any DependencyLink)?, [UnsafeMutableRawPointer], Bool) in
            guard let index = links.firstIndex(where: { $0 === link }) else { return (nil, [], links.isEmpty) }
            forgetIntermediates(of: [ObjectIdentifier(link)])
            let removed = links.remove(at: index)
            updateLeafWillChange()
            return (removed, dropOldValues(of: [ObjectIdentifier(link)]), links.isEmpty)
        }
        for box in dropped { Self.destroy(box) }
        // Weak references read nil from the moment deinitialisation starts, so a root that is being
        // deallocated (the usual reason a list ends) ends the observation here; so does the loss
        // of the last dependency (nothing could notify again). Before the link is released.
        if root == nil {
            endForDeallocatedRoot()
        } else if unlinked {
            end()
        }
        withExtendedLifetime(removed) {}
    }

    /// Under `lock`: takes out the old values pending for changes told by `sources` (links that are
    /// going), for the caller to destroy after unlocking.
    private func dropOldValues(of sources: Set<ObjectIdentifier>) -> [UnsafeMutableRawPointer] {
        guard !pendingOldValues.isEmpty else { return [] }
        var dropped: [UnsafeMutableRawPointer] = []
        pendingOldValues.removeAll { pending in
            guard let source = pending.change.source, sources.contains(source) else { return false }
            dropped.append(pending.box)
            return true
        }
        return dropped
    }

    /// Moves the links to the lists in `accesses`. Called with `lock` held; returns the links it
    /// detached and their pending old values, so the caller can release them after unlocking. Lock
    /// order: this lock, then a list's. With `leaf`, the link to the last list delivers leaf changes
    /// (a link in the wrong mode is replaced, not kept).
    private func relink(
        to accesses: [TrackedAccess], leaf: LeafConversion?
    ) -> (stale: [any DependencyLink], dropped: [UnsafeMutableRawPointer]) {
        func deliversLeaf(_ index: Int) -> Bool { leaf != nil && index == accesses.count - 1 }
        if links.count == accesses.count && zip(links, accesses).enumerated().allSatisfy({ index, pair in
            pair.0.listID == pair.1.listID && pair.0.deliversLeaf == deliversLeaf(index)
        }) {
            return ([], [])
        }
        var current = Dictionary(links.map { ($0.listID, $0) }, uniquingKeysWith: { first, _ in first })
        var relinked: [any DependencyLink] = []
        relinked.reserveCapacity(accesses.count)
        for (index, access) in accesses.enumerated() {
            if let kept = current[access.listID], kept.deliversLeaf == deliversLeaf(index) {
                current[access.listID] = nil
                relinked.append(kept)
            } else if let link = access.list.attach(self, leaf: deliversLeaf(index) ? leaf : nil) {
                relinked.append(link)
            }
        }
        let stale = Array(current.values)
        for link in stale { link.detach() }
        links = relinked
        let going = Set(stale.map { ObjectIdentifier($0) })
        forgetIntermediates(of: going)
        return (stale, dropOldValues(of: going))
    }

    private func deliver(_ root: Root, _ change: ObservedChange<Value>) {
        guard isActive else { return }
        handler(root, change)
    }
}
