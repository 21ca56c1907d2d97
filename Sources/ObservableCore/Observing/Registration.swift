/// How every observation is registered, and where `.initial` is delivered (`deliverInitial`).
@usableFromInline
enum Registration {
    /// The property's slot when `keyPath` is known to be exactly one `@Observed` property of the root's
    /// class (`KeyPathResolutions`), else `nil`: `resolve` evaluates it.
    @inlinable
    static func route<Root: AnyObject, Value>(
        _ root: Root, _ keyPath: KeyPath<Root, Value>
    ) -> (keyPath: InternedKeyPath, slotOffset: Int?) {
        InternedKeyPath.resolve(keyPath, rootType: type(of: root))
    }

    /// Delivers `.initial` once, after the observation is registered (as Cocoa does), if still active.
    @inlinable @inline(__always)
    static func deliverInitial(to observation: AnyObservation, options: ObservationOptions, _ deliver: () -> Void) {
        if options.sendsInitial, observation.isActive { deliver() }
    }

    /// Registers a direct observation of the property whose slot is at `offset`, then `.initial`.
    @inlinable @inline(__always)
    static func start<Root: AnyObject, Value>(
        _ observation: DirectObservation, atSlot offset: Int, of root: Root, _ typedKeyPath: KeyPath<Root, Value>,
        options: ObservationOptions, keyPath: InternedKeyPath, _ handler: (Root, ObservedChange<Value>) -> Void
    ) {
        // The caller's `options` and `keyPath`, not the observation's fields: where they are constants
        // the `.initial` test folds away.
        register(observation, atSlot: offset, of: root)
        deliverInitial(to: observation, options: options) {
            deliverInitial(of: root, at: typedKeyPath, options: options, keyPath: keyPath, handler)
        }
    }
    /// Registers the cheapest exact observation of `keyPath`, then `.initial`. Inlinable, so the typed
    /// functions are compiled for the concrete `Root` and `Value`.
    @inlinable
    static func register<Root: AnyObject, Value>(
        _ root: Root, _ keyPath: KeyPath<Root, Value>, options: ObservationOptions, origin: ObservationOrigin = .token,
        onObservedDeallocated: DeallocationHook? = nil, handler: @escaping (Root, ObservedChange<Value>) -> Void
    ) -> AnyObservation {
        let (interned, slotOffset) = route(root, keyPath)
        guard let slotOffset else {
            // The notify function, compiled here, is made only if the key path turns out to be one property.
            return resolve(
                root, keyPath, interned, options: options, origin: origin, onObservedDeallocated: onObservedDeallocated,
                handler: handler, notify: { TypedDirectObservation<Root, Value>.notifyFunction(options: options) },
                leafDelivery: { PathObservation<Root, Value>.leafDeliveryFunction })
        }
        let observation = DirectObservation.make(
            options: options, keyPath: interned, onObservedDeallocated: onObservedDeallocated, handler: handler,
            notify: TypedDirectObservation<Root, Value>.notifyFunction(options: options))
        if origin != .token { observation.origin = origin }
        start(observation, atSlot: slotOffset, of: root, keyPath, options: options, keyPath: interned, handler)
        return observation
    }

    /// Registers `observation` in the list of the slot at `offset` in `root`. Not generic: no type
    /// metadata is needed to register.
    @usableFromInline
    static func register(_ observation: DirectObservation, atSlot offset: Int, of root: AnyObject) {
        // `root`, which the caller holds, owns the slot and the slot the list.
        observation.register(in: ListSlot.at(offset, in: root).pointee.unretainedObservers())
    }

    /// Adds an entry of a whole-object observation to the list of the slot at `offset`; returns the
    /// list, retained, or `nil` when the object is being deallocated.
    static func add(
        _ entry: ListEntry, atSlot offset: Int, of root: AnyObject, awaitingKey: Bool, watchesSetExtent: Bool
    ) -> Unmanaged<ObserverList>? {
        let list = ListSlot.at(offset, in: root).pointee.unretainedObservers()
        guard list._withUnsafeGuaranteedRef({ $0.add(entry, awaitingKey: awaitingKey) }) else { return nil }
        if watchesSetExtent { list._withUnsafeGuaranteedRef { $0.watchSetExtent() } }
        return list.retain()
    }

    /// The first registration of `keyPath` on the class, or a path: evaluates it with tracking, and
    /// remembers the slot when it is exactly one `@Observed` property.
    @usableFromInline
    static func resolve<Root: AnyObject, Value>(
        _ root: Root, _ typedKeyPath: KeyPath<Root, Value>, _ keyPath: InternedKeyPath, options: ObservationOptions,
        origin: ObservationOrigin, onObservedDeallocated: DeallocationHook?,
        handler: @escaping (Root, ObservedChange<Value>) -> Void,
        notify: () -> EntryNotification, leafDelivery: () -> LeafDelivery
    ) -> AnyObservation {
        // What every observation of this path on this class shares; a path proven on this class
        // before is read through its stored fields (it force-unwraps nothing: that is part of the proof).
        let plan = KeyPathResolutions.shared.typedPlan(keyPath, rootType: type(of: root)) {
            TypedPathPlan(
                keyPath: keyPath, evaluate: { (root: Root) in root[keyPath: typedKeyPath] },
                leafDelivery: leafDelivery())
        }
        var read: [ObserverList] = []
        if let stored = plan.storedPath.load(), let end = stored.read(root, recording: &read) {
            return observePath(
                root, plan: plan, firstRead: .stored(read, by: stored),
                initialValue: { stored.value(at: end, as: Value.self) }, options: options, origin: origin,
                onObservedDeallocated: onObservedDeallocated, handler: handler)
        }
        if keyPath.forceUnwraps {
            // Refused before any evaluation: the path would trap once its optional is nil.
            Diagnostics.warnForceUnwrap(typedKeyPath)
            return AnyObservation.ended()
        }
        let (value, accesses) = Tracking.evaluate(root, typedKeyPath)
        if let list = accesses.directList(of: root, typedKeyPath) {
            learnDirectSlot(keyPath, of: root, access: accesses[0])
            let observation = DirectObservation.make(
                options: options, keyPath: keyPath, onObservedDeallocated: onObservedDeallocated,
                handler: handler, notify: notify())
            observation.origin = origin
            withExtendedLifetime(list) { observation.register(in: Unmanaged.passUnretained(list)) }
            deliverInitial(to: observation, options: options) {
                deliverInitial(value, of: root, options: options, keyPath: keyPath, handler)
            }
            return observation
        }
        if accesses.isEmpty { Diagnostics.warnNeverNotifies(typedKeyPath) }
        return observePath(
            root, plan: plan, firstRead: .tracked(accesses), initialValue: { value }, options: options, origin: origin,
            onObservedDeallocated: onObservedDeallocated, handler: handler)
    }

    /// Records that on `root`'s class `keyPath` is the property whose list is `list`.
    private static func learnDirectSlot(_ keyPath: InternedKeyPath, of root: AnyObject, access: TrackedAccess) {
        guard let offset = access.slotOffset else { return }
        KeyPathResolutions.shared.setDirectSlot(offset, for: keyPath, rootType: type(of: root))
    }

    /// Delivers `.initial` with the value read at `typedKeyPath`. Out of line, as the next.
    @usableFromInline @inline(never)
    static func deliverInitial<Root: AnyObject, Value>(
        of root: Root, at typedKeyPath: KeyPath<Root, Value>, options: ObservationOptions, keyPath: InternedKeyPath,
        _ handler: (Root, ObservedChange<Value>) -> Void
    ) {
        deliverInitial(Tracking.value(root, typedKeyPath), of: root, options: options, keyPath: keyPath, handler)
    }

    /// Out of line, so the metadata of `ObservedChange<Value>` is looked up only when asked for.
    @inline(never)
    private static func deliverInitial<Root: AnyObject, Value>(
        _ value: Value, of root: Root, options: ObservationOptions, keyPath: InternedKeyPath,
        _ handler: (Root, ObservedChange<Value>) -> Void
    ) {
        handler(root, options.initialChange(value, keyPath: keyPath))
    }

    /// Registers a path observation in the lists its first evaluation found, then `.initial` with
    /// `initialValue` (a closure: a tuple's metadata would be looked up each time).
    static func observePath<Root: AnyObject, Value>(
        _ root: Root, plan: TypedPathPlan<Root, Value>, firstRead: PathObservation<Root, Value>.FirstRead,
        initialValue: () -> Value, options: ObservationOptions, origin: ObservationOrigin = .token,
        onObservedDeallocated: DeallocationHook?, handler: @escaping (Root, ObservedChange<Value>) -> Void
    ) -> PathObservation<Root, Value> {
        let observation = PathObservation(
            root: root, plan: plan, options: options, onObservedDeallocated: onObservedDeallocated, handler: handler)
        observation.origin = origin
        observation.register(firstRead)
        deliverInitial(to: observation, options: options) { observation.deliverInitial(root, initialValue()) }
        observation.endIfUnlinked()
        return observation
    }
}
