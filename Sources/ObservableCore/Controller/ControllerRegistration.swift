import Synchronization

/// One (object, key) observation of a controller: the gate every callback passes, the observation
/// once started, and its place in the controller's table, a list per observed object.
///
/// A registration is a direct observation, so that the common case is one object, not two: for a
/// key path that is one `@Observed` property of the object (`ControllerDirectObservation`) it is
/// itself registered in the property's list. For anything else (a path, a string key path, a key
/// path not yet resolved on the class) it is never listed, and it holds the observation made for
/// the key, whose handler holds it (one captured reference, so the handler needs no context of its
/// own): removing it from the table and ending it breaks that cycle.
///
/// Everything but `current` is guarded by the controller's lock while the registration is in the
/// table (so without run-time exclusivity checks: the few methods that touch the fields call
/// nothing out); the table deactivates a registration as it removes it (under that lock), and from
/// then on it belongs to whoever removed it, who ends it after the lock. Every registration leaves
/// the table: on `unobserve…`, on replacement, with the controller, or when its non-retained object
/// is deallocated.
@usableFromInline
class ControllerRegistration: DirectObservation, @unchecked Sendable {
    /// `true` until the table removes it; every callback checks it.
    private let current = Atomic<Bool>(true)
    /// The string key path observed, `nil` for a typed key path (its key is the interned `keyPath`,
    /// so that a registration holds no key path of its own to retain and release).
    let stringKey: String?
    /// For a typed key path, the interned key path's identity, compared without reference counting:
    /// an interned key path lives for ever, so an equal identity is that key path.
    let keyIdentity: ObjectIdentifier?
    /// The observed object's identity, its place in the table.
    let objectID: ObjectIdentifier
    /// The observed object, when the controller retains it.
    @exclusivity(unchecked) private(set) var retainedObject: AnyObject?
    @exclusivity(unchecked) private(set) weak var weakObject: AnyObject?
    /// When the object was first observed (shared by its list): the description's order, and how a
    /// deallocation hook tells its list from a later object's at the same address.
    @exclusivity(unchecked) private(set) var objectOrder = 0
    /// The next registration of the same object.
    @exclusivity(unchecked) var next: ControllerRegistration?
    /// The observation made for the key, when it is not the registration itself.
    @exclusivity(unchecked) private var observation: AnyObservation?
    /// Whether the registration is itself the started observation, registered in a list.
    @exclusivity(unchecked) private var observesItself = false
    /// The controller's, for an object it does not retain; set before the observation starts.
    @exclusivity(unchecked) private(set) var onObjectDeallocated: (@Sendable (ControllerRegistration) -> Void)?

    /// Takes the object's identity, not the object: an initialiser's argument is owned, and
    /// retaining and releasing an object that has weak references costs more than the rest.
    /// `keyPath` and `notify` are the direct observation's, for the registration that is one.
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

    /// The key it was registered with, as `unobserve` names it.
    final var key: ControllerKey {
        stringKey.map { .string($0) } ?? .typed(keyPath.object)
    }

    /// Whether `key` names this registration's key (compared by value).
    final func matches(_ key: ControllerKey) -> Bool {
        switch key {
        case .typed(let typed): stringKey == nil && keyPath.object == typed
        case .string(let string): stringKey == string
        }
    }

    /// Not removed from the table yet.
    @usableFromInline
    final var isCurrent: Bool { current.load(ordering: .acquiring) }

    /// The observed object, while it lives.
    final var object: AnyObject? { retainedObject ?? weakObject }

    /// Whether the registration's object is `object`: a retained one by its identity, as it lives
    /// as long as the registration (no reference counting); otherwise only while it lives.
    final func isBound(to object: AnyObject) -> Bool {
        retainedObject != nil ? objectID == ObjectIdentifier(object) : weakObject === object
    }

    /// Binds it to `object` before it enters the table.
    final func bind(to object: AnyObject, retained: Bool, order: Int) {
        if retained { retainedObject = object } else { weakObject = object }
        objectOrder = order
    }

    /// For an object the controller does not retain, before the observation starts: `hook` is told
    /// (with this registration) when the object is deallocated.
    final func tellDeallocation(to hook: @escaping @Sendable (ControllerRegistration) -> Void) {
        onObjectDeallocated = hook
    }

    /// The hook for an observation made for the key, which captures this registration; `nil` when
    /// the controller retains the object.
    @usableFromInline
    final var deallocationHook: DeallocationHook? {
        guard onObjectDeallocated != nil else { return nil }
        return { self.objectDeallocated() }
    }

    /// The observed object was deallocated and the observation ended with it.
    final func objectDeallocated() {
        onObjectDeallocated?(self)
    }

    /// Current, and its observation can still notify (a path through no `@Observed` property, or an
    /// object being deallocated, gives one that never will). Under the controller's lock.
    final var isObserving: Bool {
        isCurrent && (observation ?? self).isActive
    }

    /// Whether what it observes is a path (nested or computed), as its observation's summary says:
    /// for the description, which then agrees with the object's own listing. Under the lock.
    final var observesPath: Bool {
        !observesItself && (observation?.summary()?.isPath ?? false)
    }

    /// Keeps the started observation (`nil`: the registration itself), under the
    /// controller's lock; returns it to be ended after the lock if the registration was removed
    /// meanwhile (from inside its `.initial` callback, or by another thread).
    final func attach(_ started: AnyObservation?) -> AnyObservation? {
        guard isCurrent else { return started ?? self }
        if let started { observation = started } else { observesItself = true }
        return nil
    }

    /// Stops every callback: the table's part of removing it, under the controller's lock.
    final func deactivate() {
        current.store(false, ordering: .releasing)
    }

    /// Ends the observations of this registration and of those linked after it, which have all left
    /// the table: after the controller's lock. One not started yet is ended by its `attach`.
    final func endChain() {
        var next = end()
        while let registration = next { next = registration.end() }
    }

    /// Ends this registration's observation and unlinks it, returning what followed it (moved out of
    /// `next`, not copied: no reference counting in the common chain of one).
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

/// A registration with its handler, so that the observation's handler captures only the
/// registration.
@usableFromInline
// Unchecked as its base is: the handler is called only by the observation's delivery.
class ControllerHandler<Observer: AnyObject, Object, Change>: ControllerRegistration, @unchecked Sendable {
    @usableFromInline let observer: WeakReference<Observer>
    @usableFromInline let handler: (Observer, Object, Change) -> Void

    /// A registration that holds the observation made for its key; `keyPath` is the key's, for
    /// descriptions only.
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

/// A weak reference, shared by a controller and the callbacks it installs. Written only in `init`,
/// so read without run-time exclusivity checks (each read from a callback cost one).
@usableFromInline
final class WeakReference<Object: AnyObject>: @unchecked Sendable {
    @usableFromInline @exclusivity(unchecked)
    private(set) weak var value: Object?

    init(_ value: Object) {
        self.value = value
    }
}
