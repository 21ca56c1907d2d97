import Synchronization

/// One (object, key) observation of a controller: the gate every callback passes, the observation
/// once started, and its place in the controller's table. For one `@Observed` property it is itself
/// the list's entry (`ControllerDirectObservation`); otherwise it holds the observation made for the
/// key, whose handler holds it, a cycle that ending it breaks. Guarded by the controller's lock
/// while in the table; whoever removes it ends it, after the lock.
@usableFromInline
class ControllerRegistration: DirectObservation, @unchecked Sendable {
    private let current = Atomic<Bool>(true)
    /// The string key path observed; `nil` for a typed one, whose key is the interned `keyPath`.
    let stringKey: String?
    /// For a typed key path, the interned key path's identity (interned key paths live for ever).
    let keyIdentity: ObjectIdentifier?
    let objectID: ObjectIdentifier
    @exclusivity(unchecked) private(set) var retainedObject: AnyObject?
    @exclusivity(unchecked) private(set) weak var weakObject: AnyObject?
    /// When the object was first observed: the description's order, and how a deallocation hook tells
    /// its list from a later object's at the same address.
    @exclusivity(unchecked) private(set) var objectOrder = 0
    @exclusivity(unchecked) var next: ControllerRegistration?
    @exclusivity(unchecked) private var observation: AnyObservation?
    @exclusivity(unchecked) private var observesItself = false
    @exclusivity(unchecked) private(set) var onObjectDeallocated: (@Sendable (ControllerRegistration) -> Void)?

    /// Takes the object's identity: retaining an object with weak references costs more than the rest.
    @usableFromInline
    init(
        objectID: ObjectIdentifier, stringKey: String?, keyPath: InternedKeyPath, options: ObservationOptions,
        notify: @escaping EntryNotification
    ) {
        self.objectID = objectID
        self.stringKey = stringKey
        self.keyIdentity = stringKey == nil ? ObjectIdentifier(keyPath.object) : nil
        super.init(options: options, keyPath: keyPath, notify: notify)
        origin = .controller
    }

    final var key: ControllerKey {
        stringKey.map { .string($0) } ?? .typed(keyPath.object)
    }

    final func matches(_ key: ControllerKey) -> Bool {
        switch key {
        case .typed(let typed): stringKey == nil && keyPath.object == typed
        case .string(let string): stringKey == string
        }
    }

    @usableFromInline
    final var isCurrent: Bool { current.load(ordering: .acquiring) }

    final var object: AnyObject? { retainedObject ?? weakObject }

    /// Whether the registration's object is `object`: a retained one by identity, else while it lives.
    final func isBound(to object: AnyObject) -> Bool {
        retainedObject != nil ? objectID == ObjectIdentifier(object) : weakObject === object
    }

    final func bind(to object: AnyObject, retained: Bool, order: Int) {
        if retained { retainedObject = object } else { weakObject = object }
        objectOrder = order
    }

    /// For an object the controller does not retain: `hook` is told when the object is deallocated.
    final func tellDeallocation(to hook: @escaping @Sendable (ControllerRegistration) -> Void) {
        onObjectDeallocated = hook
    }

    /// The hook for an observation made for the key; `nil` when the object is retained.
    @usableFromInline
    final var deallocationHook: DeallocationHook? {
        guard onObjectDeallocated != nil else { return nil }
        return { self.objectDeallocated() }
    }

    final func objectDeallocated() {
        onObjectDeallocated?(self)
    }

    /// Current, and its observation can still notify. Under the controller's lock.
    final var isObserving: Bool {
        isCurrent && (observation ?? self).isActive
    }

    /// Whether it observes a path, as its observation's summary says. Under the lock.
    final var observesPath: Bool {
        !observesItself && (observation?.summary()?.isPath ?? false)
    }

    /// Keeps the started observation under the controller's lock; returns it to be ended after the
    /// lock if the registration was removed meanwhile.
    final func attach(_ started: AnyObservation?) -> AnyObservation? {
        guard isCurrent else { return started ?? self }
        if let started { observation = started } else { observesItself = true }
        return nil
    }

    final func deactivate() {
        current.store(false, ordering: .releasing)
    }

    /// Ends the observations of this chain, after the controller's lock; one not started yet is ended
    /// by its `attach`.
    final func endChain() {
        var next = end()
        while let registration = next { next = registration.end() }
    }

    private final func end() -> ControllerRegistration? {
        if let observation {
            self.observation = nil
            observation.cancelOwned()
        } else if observesItself {
            cancelOwned()
        }
        var following: ControllerRegistration?
        swap(&following, &next)
        return following
    }

    /// Never called for a registration that is not listed itself; see `ControllerDirectObservation`.
    @usableFromInline
    static func unlisted(
        _: ListEntry, _: AnyObject, _: BorrowedValue, _: BorrowedValue?, _: CollectionMutation?, _: Int
    ) {}
}

/// A registration with its handler, so the observation's handler captures only the registration.
@usableFromInline
// Unchecked as its base is: the handler is called only by the observation's delivery.
class ControllerHandler<Observer: AnyObject, Object, Change>: ControllerRegistration, @unchecked Sendable {
    @usableFromInline let observer: WeakReference<Observer>
    @usableFromInline let handler: (Observer, Object, Change) -> Void

    /// A registration that holds the observation made for its key.
    @usableFromInline
    convenience init(
        objectID: ObjectIdentifier, stringKey: String?, keyPath: InternedKeyPath, options: ObservationOptions,
        observer: WeakReference<Observer>, handler: @escaping (Observer, Object, Change) -> Void
    ) {
        self.init(
            objectID: objectID, stringKey: stringKey, keyPath: keyPath, options: options, observer: observer,
            handler: handler,
            notify: ControllerRegistration.unlisted)
    }

    // Inlinable, so that the caller's references move into the fields, not retained for the call.
    @inlinable
    init(
        objectID: ObjectIdentifier, stringKey: String?, keyPath: InternedKeyPath, options: ObservationOptions,
        observer: WeakReference<Observer>, handler: @escaping (Observer, Object, Change) -> Void,
        notify: @escaping EntryNotification
    ) {
        self.observer = observer
        self.handler = handler
        super.init(objectID: objectID, stringKey: stringKey, keyPath: keyPath, options: options, notify: notify)
    }

    /// Calls the handler while the registration is current and its observer lives.
    @inlinable
    final func deliver(_ object: Object, _ change: Change) {
        guard isCurrent, let observer = observer.value else { return }
        handler(observer, object, change)
    }
}
