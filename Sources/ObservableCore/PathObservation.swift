import Synchronization

/// Something that depends on properties found by tracking: told before and after each of them
/// changes, and when one of their instances is deallocated.
protocol PathDependent: AnyObject, Sendable {
    /// Whether `dependencyWillChange` is wanted (old values or `.prior` notifications).
    var wantsWillChange: Bool { get }
    func dependencyWillChange()
    func dependencyDidChange()
    /// Delivers a change of the last property of a path proven to be pure navigation (see
    /// `PathProof`), called with this dependent; `nil` where there is none.
    var leafDelivery: LeafDelivery? { get }
    func dependencyEnded(_ link: any DependencyLink)
    /// Whether this observes `keyPath` on `root` (for manual notification of a computed property).
    func observes(_ root: AnyObject, _ keyPath: AnyKeyPath) -> Bool
}

/// The registration of a `PathDependent` in one property's list.
protocol DependencyLink: AnyObject, Sendable {
    /// Identity of the list the link sits in (one per instance and property).
    var listID: ObjectIdentifier { get }
    /// Whether the link delivers its property's values as the path's (see `PathLink`).
    var deliversLeaf: Bool { get }
    /// Removes the link from its list; idempotent.
    func detach()
}

/// A list entry that forwards a property's changes to a path observation. Usually the values are
/// unused: the path is evaluated again, which gives its own old and new values. The link of the last
/// property of a path proven to be pure navigation (`leaf` given, see `PathProof`) forwards the
/// setter's values instead, and needs no notification before the store.
final class PathLink: ListEntry, DependencyLink, @unchecked Sendable {
    private let list: ObserverList
    let dependent: any PathDependent
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
    private let target: Unmanaged<AnyObject>

    init(list: ObserverList, dependent: any PathDependent, leaf: LeafConversion?) {
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
        super.init(options: leaf == nil && dependent.wantsWillChange ? .prior : []) { entry, _, oldValue, newValue, _ in
            let link = unsafeDowncast(entry, to: PathLink.self)
            if let newValue {
                if link.deliversLeaf {
                    link.target._withUnsafeGuaranteedRef { link.leafDelivery($0, oldValue, newValue, link.wrap, link.wraps) }
                } else {
                    link.dependent.dependencyDidChange()
                }
            } else {
                link.dependent.dependencyWillChange()
            }
        }
    }

    private static func noDelivery(_: AnyObject, _: UnsafeRawPointer, _: UnsafeRawPointer, _: LeafWrap, _: Bool) {}
    private static func noWrap(_: UnsafeRawPointer, _: UnsafeMutableRawPointer) {}

    var listID: ObjectIdentifier { ObjectIdentifier(list) }

    func detach() { list.remove(self) }

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
final class PathObservation<Root: AnyObject, Value>: ObservationCore, PathDependent, @unchecked Sendable {
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
    /// Old values taken before the store, consumed after it (a stack, because a callback may set a
    /// dependency again before the outer change completes). Each is boxed by hand in memory laid out
    /// for `Value`: this code is not specialised, and an `[Value]` cost about 2,000 instructions of
    /// metadata and witness-table lookups per change; a box is one allocation.
    @exclusivity(unchecked) private var pendingOldValues: [UnsafeMutableRawPointer] = []

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
        let stale = lock.withLock { relink(to: accesses, leaf: leaf) }
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
            swap(&values, &pendingOldValues)
            for link in taken { link.detach() }
            return (taken, values)
        }
        // Released after the lock: the last references to links, old values and what they hold.
        for box in oldValues { Self.destroy(box) }
        withExtendedLifetime(detached) {}
    }

    deinit {
        for box in pendingOldValues { Self.destroy(box) }
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

    func dependencyWillChange() {
        guard isActive, let root else { return }
        let oldValue = Tracking.untracked { evaluate(root) }
        if options.contains(.old) {
            let box = Self.box(oldValue)
            lock.withLock { pendingOldValues.append(box) }
        }
        if options.contains(.prior) { deliverPrior(root, oldValue) }
    }

    /// Out of line, so that the type metadata it needs is looked up only for `.prior`.
    @inline(never)
    private func deliverPrior(_ root: Root, _ oldValue: Value) {
        deliver(root, options.change(old: oldValue, new: nil, isPrior: true, keyPath: keyPath))
    }

    func dependencyDidChange() {
        guard isActive else { return }
        guard let root else {
            // The root was deallocated while an intermediate object lives on.
            endForDeallocatedRoot()
            return
        }
        let (newValue, accesses) = Tracking.evaluate { evaluate(root) }
        let leaf = leafConversion(root, accesses)
        let (oldBox, stale, unlinked) = lock.withLock { () -> (UnsafeMutableRawPointer?, [any DependencyLink], Bool) in
            let oldBox = options.contains(.old) ? pendingOldValues.popLast() : nil
            guard isActive else { return (oldBox, [], false) }
            return (oldBox, relink(to: accesses, leaf: leaf), links.isEmpty)
        }
        // Built directly rather than through `options.change` and `Optional.map`: in this
        // unspecialised code their closures cost more than the rest of the delivery.
        var oldValue: Value?
        if let oldBox { oldValue = Self.unbox(oldBox) }
        deliver(root, ObservedChange(
            kind: .setting, oldValue: oldValue, newValue: options.contains(.new) ? newValue : nil, isPrior: false,
            keyPath: keyPath, mutation: nil))
        // No dependency left (a computed property that now reads no `@Observed` one): this change
        // was the last. Ended before the stale links, which own the observation, are released.
        if unlinked { end() }
        withExtendedLifetime(stale) {}
    }

    func dependencyEnded(_ link: any DependencyLink) {
        let (removed, unlinked) = lock.withLock { () -> ((any DependencyLink)?, Bool) in
            guard let index = links.firstIndex(where: { $0 === link }) else { return (nil, links.isEmpty) }
            return (links.remove(at: index), links.isEmpty)
        }
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

    /// Moves the links to the lists in `accesses`. Called with `lock` held; returns the links it
    /// detached so the caller can release them after unlocking. Lock order: this lock, then a list's.
    /// With `leaf`, the link to the last list delivers leaf changes (a link in the wrong mode is
    /// replaced, not kept).
    private func relink(to accesses: [TrackedAccess], leaf: LeafConversion?) -> [any DependencyLink] {
        func deliversLeaf(_ index: Int) -> Bool { leaf != nil && index == accesses.count - 1 }
        if links.count == accesses.count && zip(links, accesses).enumerated().allSatisfy({ index, pair in
            pair.0.listID == pair.1.listID && pair.0.deliversLeaf == deliversLeaf(index)
        }) {
            return []
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
        return stale
    }

    private func deliver(_ root: Root, _ change: ObservedChange<Value>) {
        guard isActive else { return }
        handler(root, change)
    }
}
