@usableFromInline
enum Registration {
    /// Resolves `keyPath` and registers the cheapest observation that is exact for it; delivers
    /// `.initial` after registering, as Cocoa does. `direct` carries the direct observation, built with
    /// its specialised notify function by the `@inlinable` caller, and, once known, the property's slot.
    ///
    /// The first registration of a key path on a class evaluates it with tracking; when that shows it
    /// is exactly one `@Observed` property of the root, the slot's position is remembered, and later
    /// registrations of that key path on that class go straight to the slot.
    @usableFromInline
    static func observe<Root: AnyObject, Value>(
        _ root: Root, _ keyPath: KeyPath<Root, Value>, options: ObservationOptions,
        handler: @escaping (Root, ObservedChange<Value>) -> Void,
        direct: DirectRoute
    ) -> AnyObservation {
        if let offset = direct.slotOffset {
            let slot = UnsafeRawPointer(Unmanaged.passUnretained(root).toOpaque())
                .advanced(by: offset).assumingMemoryBound(to: _$ObservationSlot.self)
            // `root`, which the caller holds, owns the slot and the slot the list.
            let observation = observeDirectly(
                slot.pointee.unretainedObservers(), direct: direct)
            if options.contains(.initial), observation.isActive {
                deliverInitial(Tracking.value(root, keyPath), of: root, options: options, keyPath: direct.keyPath, handler)
            }
            return observation
        }
        if direct.keyPath.forceUnwraps {
            // Refused before any evaluation: the path would trap once its optional is nil.
            Diagnostics.warnForceUnwrap(keyPath)
            _ = direct.observation.claimEnd()
            return direct.observation
        }
        let (value, accesses) = Tracking.evaluate(root, keyPath)
        if let list = accesses.directList(of: root, keyPath) {
            learnDirectSlot(direct.keyPath, of: root, list: list)
            let observation = withExtendedLifetime(list) {
                observeDirectly(Unmanaged.passUnretained(list), direct: direct)
            }
            if options.contains(.initial), observation.isActive {
                deliverInitial(value, of: root, options: options, keyPath: direct.keyPath, handler)
            }
            return observation
        }
        if accesses.isEmpty { Diagnostics.warnNeverNotifies(keyPath) }
        return observePath(
            root, keyPath: direct.keyPath, evaluate: { $0[keyPath: keyPath] }, evaluated: (value, accesses), options: options,
            onObservedDeallocated: direct.onObservedDeallocated, leafDelivery: direct.leafDelivery, handler: handler)
    }

    /// Records that on `root`'s class `keyPath` is the one `@Observed` property whose list is `list`
    /// (a tracking evaluation found that), so later registrations can skip the evaluation and go to
    /// the slot. The slot is found among the class's own slot fields, by the list it holds.
    private static func learnDirectSlot(_ keyPath: InternedKeyPath, of root: AnyObject, list: ObserverList) {
        let rootType: AnyClass = type(of: root)
        let base = UnsafeRawPointer(Unmanaged.passUnretained(root).toOpaque())
        for offset in ReflectedFields.of(rootType).slotOffsets
        where base.advanced(by: offset).assumingMemoryBound(to: _$ObservationSlot.self).pointee.holds(list) {
            KeyPathResolutions.shared.setDirectSlot(offset, for: keyPath, rootType: rootType)
            return
        }
    }

    /// Delivers `.initial`. Out of line: the `ObservedChange<Value>` type metadata it needs (this code is
    /// not specialised) is then looked up only when an initial value is asked for, not on every
    /// registration.
    @inline(never)
    private static func deliverInitial<Root: AnyObject, Value>(
        _ value: Value, of root: Root, options: ObservationOptions, keyPath: InternedKeyPath,
        _ handler: (Root, ObservedChange<Value>) -> Void
    ) {
        handler(root, options.change(old: nil, new: value, isPrior: false, keyPath: keyPath))
    }

    /// Registers the direct observation in `list`. Not generic: no type metadata is needed to register.
    private static func observeDirectly(
        _ list: Unmanaged<ObserverList>, direct: DirectRoute
    ) -> DirectObservation {
        direct.observation.register(in: list)
        return direct.observation
    }

    /// Registers a path observation in the lists a first tracking evaluation found, and delivers
    /// `.initial` with the value it read.
    static func observePath<Root: AnyObject, Value>(
        _ root: Root, keyPath: InternedKeyPath, evaluate: @escaping (Root) -> Value,
        evaluated: (value: Value, accesses: [TrackedAccess]), options: ObservationOptions,
        onObservedDeallocated: DeallocationHook?, leafDelivery: LeafDelivery? = nil,
        handler: @escaping (Root, ObservedChange<Value>) -> Void
    ) -> PathObservation<Root, Value> {
        let observation = PathObservation(
            root: root, keyPath: keyPath, evaluate: evaluate, options: options,
            onObservedDeallocated: onObservedDeallocated, leafDelivery: leafDelivery, handler: handler)
        observation.register(evaluated.accesses)
        if options.contains(.initial) { observation.deliverInitial(root, evaluated.value) }
        observation.endIfUnlinked()
        return observation
    }
}
