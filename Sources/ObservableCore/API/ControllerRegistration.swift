import Synchronization

/// One (object, key) observation of a controller: the gate every callback passes, the observation
/// once started, and its place in the controller's table, a list per observed object.
///
/// Everything but `active` is guarded by the controller's lock while the registration is in the
/// table (so without run-time exclusivity checks: the few methods that touch the fields call
/// nothing out); the table deactivates a registration as it removes it (under that lock), and from
/// then on it belongs to whoever removed it, who ends it after the lock.
///
/// It holds its observation strongly and the observation's handler holds it (one captured reference,
/// so the handler needs no context of its own): removing it from the table and ending it breaks
/// that cycle. Every registration leaves the table: on `unobserve…`, on replacement, with the
/// controller, or when its non-retained object is deallocated.
@usableFromInline
class ControllerRegistration: @unchecked Sendable {
    private let active = Atomic<Bool>(true)
    let key: ControllerKey
    /// The key's `identity`, compared without reference counting.
    let keyIdentity: ObjectIdentifier?
    /// The observed object's identity, its place in the table.
    let objectID: ObjectIdentifier
    /// The observation's options, for the controller's description.
    let options: ObservationOptions
    /// The observed object, when the controller retains it.
    @exclusivity(unchecked) private(set) var retainedObject: AnyObject?
    @exclusivity(unchecked) private(set) weak var weakObject: AnyObject?
    /// When the object was first observed (shared by its list): the description's order, and how a
    /// deallocation hook tells its list from a later object's at the same address.
    @exclusivity(unchecked) private(set) var objectOrder = 0
    /// The next registration of the same object.
    @exclusivity(unchecked) var next: ControllerRegistration?
    @exclusivity(unchecked) private var observation: AnyObservation?

    /// Takes the object's identity, not the object: an initialiser's argument is owned, and
    /// retaining and releasing an object that has weak references costs more than the rest.
    @usableFromInline
    init(objectID: ObjectIdentifier, key: ControllerKey, options: ObservationOptions) {
        self.objectID = objectID
        self.key = key
        self.keyIdentity = key.identity
        self.options = options
    }

    @usableFromInline
    final var isActive: Bool { active.load(ordering: .acquiring) }

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

    /// Active, and its observation can still notify (a path through no `@Observed` property, or an
    /// object being deallocated, gives one that never will). Under the controller's lock.
    final var isObserving: Bool {
        isActive && observation?.isActive ?? true
    }

    /// Keeps the started observation, under the controller's lock; returns it to be ended after the
    /// lock if the registration was removed meanwhile (from inside its `.initial` callback, or by
    /// another thread).
    final func attach(_ started: AnyObservation) -> AnyObservation? {
        guard isActive else { return started }
        observation = started
        return nil
    }

    /// Stops every callback: the table's part of removing it, under the controller's lock.
    final func deactivate() {
        active.store(false, ordering: .releasing)
    }

    /// Ends the observations of this registration and of those linked after it, which have all left
    /// the table: after the controller's lock.
    final func endChain() {
        var current: ControllerRegistration? = self
        while let registration = current {
            let observation = registration.observation
            registration.observation = nil
            observation?.cancelOwned()
            current = registration.next
            registration.next = nil
        }
    }
}

/// A registration with its handler, so that the observation's handler captures only the
/// registration.
@usableFromInline
// Unchecked as its base is: the handler is called only by the observation's delivery.
final class ControllerHandler<Observer: AnyObject, Object, Change>: ControllerRegistration, @unchecked Sendable {
    @usableFromInline let observer: WeakReference<Observer>
    @usableFromInline let handler: (Observer, Object, Change) -> Void

    @usableFromInline
    init(
        objectID: ObjectIdentifier, key: ControllerKey, options: ObservationOptions, observer: WeakReference<Observer>,
        handler: @escaping (Observer, Object, Change) -> Void
    ) {
        self.observer = observer
        self.handler = handler
        super.init(objectID: objectID, key: key, options: options)
    }

    /// Calls the handler while the registration is active and its observer lives.
    @inlinable
    func deliver(_ object: Object, _ change: Change) {
        guard isActive, let observer = observer.value else { return }
        handler(observer, object, change)
    }
}
