/// What a registration needs to observe one key path of one root directly: the observation, built and
/// specialised by the `@inlinable` caller but not registered yet, and, once a registration has proved
/// it, where the property's slot is.
@usableFromInline
struct DirectRoute {
    @usableFromInline let observation: DirectObservation
    /// Byte offset of the `@Observed` slot in instances of the root's class, when this key path is
    /// known to be exactly that property there; `nil` until a tracking evaluation has shown it.
    @usableFromInline let slotOffset: Int?
    /// Should the key path turn out to be a path instead, its `PathObservation.deliverLeaf`,
    /// specialised by the same caller.
    @usableFromInline let leafDelivery: LeafDelivery
    /// Told when the observation ends because the observed object was deallocated, whichever kind of
    /// observation the key path turns out to need.
    @usableFromInline let onObservedDeallocated: DeallocationHook?

    @inlinable
    init(observation: DirectObservation, slotOffset: Int?, leafDelivery: @escaping LeafDelivery,
         onObservedDeallocated: DeallocationHook?) {
        self.observation = observation
        self.slotOffset = slotOffset
        self.leafDelivery = leafDelivery
        self.onObservedDeallocated = onObservedDeallocated
    }

    var keyPath: InternedKeyPath { observation.keyPath }
}

@usableFromInline
enum Delivery {
    /// Builds the direct observation of `keyPath` on `root`, to be registered if the key path turns out
    /// to be one `@Observed` property (and dropped otherwise). `@inlinable`, so it is specialised where
    /// `observe` is called: the typed work is compiled for the concrete `Root` and `Value`.
    @inlinable
    static func direct<Root: AnyObject, Value>(
        root: Root,
        keyPath: KeyPath<Root, Value>,
        options: ObservationOptions,
        onObservedDeallocated: DeallocationHook? = nil,
        handler: @escaping (Root, ObservedChange<Value>) -> Void
    ) -> DirectRoute {
        let (keyPath, slotOffset) = InternedKeyPath.resolve(keyPath, rootType: type(of: root))
        // The default options get a function of their own, with the option tests folded away.
        let notify: EntryNotification = options == [.old, .new]
            ? { entry, object, old, new, mutation, _ in
                notifyDirect(Root.self, Value.self, entry, object, old, new, mutation, options: [.old, .new])
            }
            : { entry, object, old, new, mutation, _ in
                notifyDirect(Root.self, Value.self, entry, object, old, new, mutation, options: nil)
            }
        // With the default options, an observation of its own class: a set recognises it by that
        // and calls its handler with the change it built once (see `EntryRun.deliverDidChange`).
        // A deallocation hook (controllers, change sequences) makes a class of its own, so that the
        // others carry no field for it.
        let observation: DirectObservation = if let onObservedDeallocated {
            HookedDirectObservation(
                options: options, keyPath: keyPath, handler: handler, onObservedDeallocated: onObservedDeallocated,
                notify: notify)
        } else if options == [.old, .new] {
            DefaultOptionsObservation(keyPath: keyPath, handler: handler, notify: notify)
        } else {
            TypedDirectObservation(options: options, keyPath: keyPath, handler: handler, notify: notify)
        }
        return DirectRoute(observation: observation, slotOffset: slotOffset, leafDelivery: { observation, old, new, wrap, wraps in
            unsafeDowncast(observation, to: PathObservation<Root, Value>.self).deliverLeaf(old, new, wrap, wraps: wraps)
        }, onObservedDeallocated: onObservedDeallocated)
    }

    /// The body of a direct observation's notify function: `entry` is the observation, `object` the
    /// observed instance, the values are of type `Value`. `options` is a constant where the caller
    /// knows them (the tests on it then fold away), else `nil`: the observation's own.
    @inlinable @inline(__always)
    static func notifyDirect<Root: AnyObject, Value>(
        _: Root.Type, _: Value.Type, _ entry: ListEntry, _ object: AnyObject, _ oldValue: UnsafeRawPointer,
        _ newValue: UnsafeRawPointer?, _ mutation: CollectionMutation?, options: ObservationOptions?
    ) {
        // Only this observation's list entry calls this function, with itself.
        let observation = unsafeDowncast(entry, to: TypedDirectObservation<Root, Value>.self)
        guard observation.isActive else { return }
        // The list belongs to the observed instance and its setter passes that instance.
        let root = unsafeDowncast(object, to: Root.self)
        let old = oldValue.assumingMemoryBound(to: Value.self)
        let options = options ?? observation.options
        if let newValue {
            let new = newValue.assumingMemoryBound(to: Value.self)
            if let mutation {
                observation.handler(root, options.change(
                    old: old.pointee, new: new.pointee, isPrior: false, keyPath: observation.keyPath, mutation: mutation))
            } else {
                // A constant `nil` mutation: the change is built without retaining and releasing it.
                observation.handler(root, options.change(
                    old: old.pointee, new: new.pointee, isPrior: false, keyPath: observation.keyPath))
            }
        } else {
            observation.handler(root, options.change(
                old: old.pointee, new: nil, isPrior: true, keyPath: observation.keyPath))
        }
    }
}
