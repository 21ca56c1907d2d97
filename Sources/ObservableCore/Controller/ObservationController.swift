import Synchronization

/// Observations owned by an observer, in the manner of Facebook's KVOController.
///
/// The observer keeps the controller (typically in a `lazy var`); the controller holds the observer
/// weakly and passes it to every callback, so handlers need no `[weak self]` dance. When the
/// controller is deallocated (with its observer) every observation it made ends.
///
/// ```swift
/// final class ProfileViewModel {
///     lazy var observations = ObservationController(observer: self)
///     private(set) var title = ""
///
///     func bind(_ person: Person) {
///         observations.observe(person, \.name, options: [.initial, .new]) { viewModel, _, change in
///             viewModel.title = change.newValue ?? ""
///         }
///     }
/// }
/// ```
///
/// - **Retaining.** By default the controller retains the objects it observes, as `KVOController`
///   does, so they live while observed; `retainsObserved: false` is `KVOControllerNonRetaining`:
///   when an observed object is deallocated its observations end cleanly and `onObservedDeallocated`
///   (if given) is told. An object observed through its own controller is never retained by it, so
///   self-observation forms no cycle. An observed object that itself owns the observer would form
///   one with a retaining controller: use `retainsObserved: false` there.
/// - **One observation per (object, key path).** Observing the same pair again replaces the earlier
///   observation: the latest handler and options win (with `.initial`, the new handler gets the
///   current value). Debug builds say so on standard error, once per key path.
/// - **Removal.** `unobserve(_:_:)`, `unobserve(_:)` and `unobserveAll()` are idempotent, accept
///   objects and key paths that were never observed, and may be called from any thread and from
///   inside any callback, including an `.initial` one.
/// - **Threads and the resurrection guard.** The controller's lock covers only its own table, never a
///   callback. Once `unobserve…` returns, or once the observer has begun deinitialising, no new
///   callback reaches the observer. The controller is `Sendable` when its `Observer` is: it hands
///   the observer out (``observer``), so a controller of a non-`Sendable` observer stays in the
///   observer's isolation, as the observer does.
public final class ObservationController<Observer: AnyObject> {
    /// Whether observed objects are kept alive while observed (`KVOController`) or not
    /// (`KVOControllerNonRetaining`).
    public let retainsObserved: Bool

    @usableFromInline
    let observerReference: WeakReference<Observer>
    /// The observer's identity, which `register` compares without loading the weak reference. Once
    /// the observer is gone another object may have its address; that object is then not retained,
    /// which nobody sees: no callback runs without the observer.
    private let observerID: ObjectIdentifier
    private let onObservedDeallocated: (@Sendable (Observer, ObjectIdentifier) -> Void)?

    private let lock = ShortLock()
    /// Guarded by `lock` (so without run-time exclusivity checks; the table calls nothing out, and
    /// what it removes is ended, and a replacement reported, after the lock).
    @exclusivity(unchecked) private var table = ControllerTable()
    /// What a registration of an object the controller does not retain is told to call when the
    /// object is deallocated: this controller's, reached weakly. Set once, at the end of `init` (so
    /// without run-time exclusivity checks).
    @exclusivity(unchecked) private var objectDeallocatedHook: (@Sendable (ControllerRegistration) -> Void)!

    /// Creates a controller for `observer`, which it holds weakly.
    ///
    /// - Parameters:
    ///   - observer: Passed to every callback while it lives; usually the owner of the controller.
    ///   - retainsObserved: Whether observed objects are kept alive while observed. Default `true`.
    ///   - onObservedDeallocated: With `retainsObserved: false`, called once for each observed
    ///     object that is deallocated while observed (with the observer and the object's former
    ///     identity), on the thread that released the object, after its observations ended.
    public init(
        observer: Observer,
        retainsObserved: Bool = true,
        onObservedDeallocated: (@Sendable (Observer, ObjectIdentifier) -> Void)? = nil
    ) {
        self.observerReference = WeakReference(observer)
        self.observerID = ObjectIdentifier(observer)
        self.retainsObserved = retainsObserved
        self.onObservedDeallocated = onObservedDeallocated
        // The hook runs on the thread that releases the object; it touches only the table, under
        // its lock, so the controller may be reached from there even when it is not `Sendable`.
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
    /// ```swift
    /// observations.observe(person, \.address?.city, options: [.initial, .new]) { view, person, change in
    ///     view.cityLabel = change.newValue ?? nil
    /// }
    /// ```
    ///
    /// Key paths are those of ``KeyValueObservable/observe(_:options:_:)``: one `@Observed` property,
    /// a nested path that follows its intermediate objects, or a computed property.
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
            // One property whose slot is known: the registration is the observation.
            let registration = ControllerDirectObservation(
                objectID: ObjectIdentifier(object), keyPath: keyPath, interned: interned, options: options,
                observer: observerReference, handler: handler)
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
                notify: TypedDirectObservation<Object, Value>.notifyFunction(options: options),
                leafDelivery: PathObservation<Object, Value>.leafDeliveryFunction)
        }
    }

    /// Observes `keyPath` of `object`, calling a method of the observer: the Swift form of
    /// KVOController's target-action.
    ///
    /// ```swift
    /// final class Badge {
    ///     lazy var observations = ObservationController(observer: self)
    ///     func bind(_ person: Person) { observations.observe(person, \.name, action: Badge.nameDidChange) }
    ///     func nameDidChange(_ person: Person, _ change: ObservedChange<String>) { … }
    /// }
    /// ```
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
    ///
    /// ```swift
    /// if !observations.isObserving(person, \.name) { observations.observe(person, \.name) { … } }
    /// ```
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

    // MARK: Machinery

    /// One line of the description.
    typealias LiveObservation = (key: ControllerKey, options: ObservationOptions, isPath: Bool)

    /// The live observations, by observed object in the order they were first observed, for the
    /// description.
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

    /// With `.initial`, records `registration` for `object` in the table *before* starting the
    /// observation, so that `unobserve` from inside the `.initial` callback (which runs within
    /// `start`) finds it; KVOController needed a state machine for the same case. Without, no callback
    /// of this registration runs before `observe` returns but on another thread, racing it: the
    /// observation is started first and recorded with it, under the lock once.
    @usableFromInline
    func register<Object: AnyObject>(
        _ object: Object, _ registration: ControllerRegistration,
        start: () -> AnyObservation?
    ) {
        let retained = retainsObserved && ObjectIdentifier(object) != observerID
        // A retained object cannot end while observed.
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

    /// Ends, after the lock, what inserting `registration` removed: an earlier registration of the
    /// same key (reported in debug builds; it shares the object's order), or the list of a dead
    /// object that had the same address.
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

    /// `registration`'s observed object was deallocated, ending its observation; the first of the
    /// object's registrations to report it removes its list and tells the observer.
    private func observedObjectDeallocated(_ registration: ControllerRegistration) {
        guard let removed = lock.withLock({ table.removeList(of: registration) }) else { return }
        removed.endChain()
        if let onObservedDeallocated, let observer = observerReference.value {
            onObservedDeallocated(observer, registration.objectID)
        }
    }
}

// Sendable only with its observer: `controller.observer` must not cross into another task when
// the observer cannot. (The controller's own state is guarded by its lock.)
extension ObservationController: @unchecked Sendable where Observer: Sendable {}
