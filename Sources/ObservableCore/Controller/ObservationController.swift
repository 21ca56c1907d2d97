import Synchronization

/// Observations owned by an observer, in the manner of Facebook's KVOController.
///
/// The observer keeps the controller (typically in a `lazy var`); the controller holds the observer
/// weakly and passes it to every callback, and ends every observation it made when it is
/// deallocated. Observing the same (object, key path) again replaces the earlier observation.
public final class ObservationController<Observer: AnyObject> {
    /// Whether observed objects are kept alive while observed (`KVOController`) or not
    /// (`KVOControllerNonRetaining`).
    public let retainsObserved: Bool

    @usableFromInline
    let observerReference: WeakReference<Observer>
    /// Compared without loading the weak reference.
    private let observerID: ObjectIdentifier
    private let onObservedDeallocated: (@Sendable (Observer, ObjectIdentifier) -> Void)?

    private let lock = ShortLock()
    /// Guarded by `lock`, which calls nothing out: what the table removes is ended after the lock.
    @exclusivity(unchecked) private var table = ControllerTable()
    /// Called, weakly reaching this controller, when an object it does not retain is deallocated.
    @exclusivity(unchecked) private var objectDeallocatedHook: (@Sendable (ControllerRegistration) -> Void)!

    /// Creates a controller for `observer`, which it holds weakly.
    ///
    /// - Parameters:
    ///   - observer: Passed to every callback while it lives; usually the owner of the controller.
    ///   - retainsObserved: Whether observed objects are kept alive while observed. Default `true`.
    ///   - onObservedDeallocated: With `retainsObserved: false`, called once for each object
    ///     deallocated while observed, on the thread that released it.
    public init(
        observer: Observer,
        retainsObserved: Bool = true,
        onObservedDeallocated: (@Sendable (Observer, ObjectIdentifier) -> Void)? = nil
    ) {
        self.observerReference = WeakReference(observer)
        self.observerID = ObjectIdentifier(observer)
        self.retainsObserved = retainsObserved
        self.onObservedDeallocated = onObservedDeallocated
        // Runs on the releasing thread but touches only the locked table, so needs no `Sendable`.
        let controller = WeakReference(self)
        self.objectDeallocatedHook = { controller.value?.observedObjectDeallocated($0) }
    }

    deinit {
        unobserveAll()
    }

    /// The observer, while it lives.
    public var observer: Observer? { observerReference.value }

    /// Observes `keyPath` of `object`, calling `handler` with the observer, the object and the change.
    ///
    /// Key paths are those of ``KeyValueObservable/observe(_:options:_:)``.
    @inlinable
    public func observe<Object: KeyValueObservable, Value>(
        _ object: Object,
        _ keyPath: KeyPath<Object, Value>,
        options: ObservationOptions = [.old, .new],
        _ handler: @escaping (Observer, Object, ObservedChange<Value>) -> Void
    ) {
        // Inlinable so that the gate and the notify functions are specialised for Object and Value.
        let (interned, slotOffset) = Registration.route(object, keyPath)
        if let slotOffset {
            let registration = ControllerDirectObservation(
                objectID: ObjectIdentifier(object), keyPath: keyPath, interned: interned, options: options,
                observer: observerReference, handler: handler,
                notify: ControllerDirectObservation<Observer, Object, Value>.notifyFunction(options: options))
            register(object, registration) { registration.start(atSlot: slotOffset, of: object, keyPath) }
            return
        }
        let registration = ControllerHandler(
            objectID: ObjectIdentifier(object), stringKey: nil, keyPath: interned, options: options,
            observer: observerReference, handler: handler)
        register(object, registration) {
            Registration.resolve(
                object, keyPath, interned, options: options, origin: .controller,
                onObservedDeallocated: registration.deallocationHook, handler: { registration.deliver($0, $1) },
                notify: { TypedDirectObservation<Object, Value>.notifyFunction(options: options) },
                leafDelivery: { PathObservation<Object, Value>.leafDeliveryFunction })
        }
    }

    /// Observes `keyPath` of `object`, calling a method of the observer (`action: Badge.nameDidChange`):
    /// the Swift form of KVOController's target-action.
    public func observe<Object: KeyValueObservable, Value>(
        _ object: Object,
        _ keyPath: KeyPath<Object, Value>,
        options: ObservationOptions = [.old, .new],
        action: @escaping (Observer) -> (Object, ObservedChange<Value>) -> Void
    ) {
        observe(object, keyPath, options: options) { observer, object, change in
            action(observer)(object, change)
        }
    }

    /// Ends the observation of `keyPath` on `object`, if there is one.
    public func unobserve<Object: KeyValueObservable>(_ object: Object, _ keyPath: PartialKeyPath<Object>) {
        unobserve(object, .typed(keyPath))
    }

    // Each removal ends what it removed after the lock, where a retained object is released too.
    func unobserve(_ object: AnyObject, _ key: ControllerKey) {
        lock.withLock { table.remove(key, of: object) }?.endChain()
    }

    /// Ends every observation of `object` made through this controller.
    public func unobserve(_ object: AnyObject) {
        lock.withLock { table.removeAll(of: object) }?.endChain()
    }

    /// Ends every observation made through this controller.
    public func unobserveAll() {
        lock.withLock { table.removeAll() }?.endChain()
    }

    /// Whether the controller has a live observation of `keyPath` on `object`: registered, not
    /// removed, and able to notify (`false` for a path that reads no `@Observed` property).
    public func isObserving<Object: KeyValueObservable>(_ object: Object, _ keyPath: PartialKeyPath<Object>) -> Bool {
        isObserving(object, .typed(keyPath))
    }

    func isObserving(_ object: AnyObject, _ key: ControllerKey) -> Bool {
        lock.withLock { table.registration(key, of: object)?.isObserving ?? false }
    }

    /// The objects currently observed through this controller.
    public var observedObjects: [AnyObject] {
        lock.withLock { table.objects }
    }

    typealias LiveObservation = (key: ControllerKey, options: ObservationOptions, isPath: Bool)

    /// The live observations, by object in the order first observed, for the description.
    func liveObservations() -> [(object: AnyObject, observed: [LiveObservation])] {
        lock.withLock {
            var live: [(object: AnyObject, observed: [LiveObservation])] = []
            for (object, registrations) in table.byObject {
                let observed = registrations.filter(\.isObserving).map {
                    LiveObservation(key: $0.key, options: $0.options, isPath: $0.observesPath)
                }
                if !observed.isEmpty { live.append((object, observed)) }
            }
            return live
        }
    }

    /// With `.initial`, records the registration before starting it, so that `unobserve` inside the
    /// `.initial` callback finds it; without, starts first and records once, under the lock.
    @usableFromInline
    func register<Object: AnyObject>(
        _ object: Object, _ registration: ControllerRegistration,
        start: () -> AnyObservation?
    ) {
        let retained = retainsObserved && ObjectIdentifier(object) != observerID
        if !retained { registration.tellDeallocation(to: objectDeallocatedHook) }
        if registration.options.sendsInitial {
            let removed = lock.withLock { table.insert(registration, of: object, retained: retained) }
            end(removed, insertedWith: registration, of: object)
            let observation = start()
            lock.withLock { registration.attach(observation) }?.cancelOwned()
        } else {
            let observation = start()
            let removed = lock.withLock { () -> ControllerRegistration? in
                // Not in the table yet, so nothing has deactivated it: `attach` keeps the observation.
                _ = registration.attach(observation)
                return table.insert(registration, of: object, retained: retained)
            }
            end(removed, insertedWith: registration, of: object)
        }
    }

    /// Ends what inserting `registration` removed: the same key's (reported in debug builds), or a
    /// dead object's list.
    private func end(
        _ removed: ControllerRegistration?, insertedWith registration: ControllerRegistration, of object: AnyObject
    ) {
        guard let removed else { return }
        if removed.objectOrder == registration.objectOrder { warnReplaced(registration, of: object) }
        removed.endChain()
    }

    /// Out of line: describing the key path is for the rare replacement, not every `observe`'s code.
    @inline(never)
    private func warnReplaced(_ registration: ControllerRegistration, of object: AnyObject) {
        ListedProperties.learnSlots(of: object)
        Diagnostics.warnReplacedObservation(named: registration.key.description(rootType: type(of: object)))
    }

    /// The first of a dead object's registrations to report it removes its list and tells the observer.
    private func observedObjectDeallocated(_ registration: ControllerRegistration) {
        guard let removed = lock.withLock({ table.removeList(of: registration) }) else { return }
        removed.endChain()
        if let onObservedDeallocated, let observer = observerReference.value {
            onObservedDeallocated(observer, registration.objectID)
        }
    }
}

// Sendable only with its observer, which `observer` hands out; its own state is under its lock.
extension ObservationController: @unchecked Sendable where Observer: Sendable {}
