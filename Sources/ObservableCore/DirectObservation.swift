import Synchronization

/// What a token (or a controller) holds: something that can be cancelled.
@usableFromInline
protocol ObservationCore: AnyObject, Sendable {
    /// `false` once cancelled or once the observed object was deallocated.
    var isActive: Bool { get }
    /// Ends the observation: idempotent, callable from any thread and from inside any callback.
    /// After it returns no new callback of this observation starts.
    func cancel()
}

/// Told once when an observation ends because its observed object was deallocated (never when it
/// is cancelled). Runs on the thread that released the object, during its deinitialisation.
@usableFromInline
typealias DeallocationHook = @Sendable () -> Void

/// Turns a change delivered by address (the observed object, the old value, the new value or `nil`
/// for a `.prior` notification, and what an in-place collection mutation did) into a typed
/// `ObservedChange` and calls the handler.
@usableFromInline
typealias DirectDelivery = (AnyObject, UnsafeRawPointer, UnsafeRawPointer?, CollectionMutation?) -> Void

/// What a registration needs to observe one key path of one root directly: the specialised delivery,
/// the interned key path, and, once a registration has proved it, where the property's slot is.
@usableFromInline
struct DirectRoute {
    @usableFromInline let deliver: DirectDelivery
    @usableFromInline let keyPath: InternedKeyPath
    /// Byte offset of the `@Observed` slot in instances of the root's class, when this key path is
    /// known to be exactly that property there; `nil` until a tracking evaluation has shown it.
    @usableFromInline let slotOffset: Int?

    @inlinable
    init(deliver: @escaping DirectDelivery, keyPath: InternedKeyPath, slotOffset: Int?) {
        self.deliver = deliver
        self.keyPath = keyPath
        self.slotOffset = slotOffset
    }
}

@usableFromInline
enum Delivery {
    /// Builds the delivery for a direct observation of `keyPath` on `root`. `@inlinable`, so it is
    /// specialised where `observe` is called: the typed work is compiled for the concrete `Root` and
    /// `Value`.
    @inlinable
    static func direct<Root: AnyObject, Value>(
        root: Root,
        keyPath: KeyPath<Root, Value>,
        options: ObservationOptions,
        handler: @escaping (Root, ObservedChange<Value>) -> Void
    ) -> DirectRoute {
        let (keyPath, slotOffset) = InternedKeyPath.resolve(keyPath, rootType: type(of: root))
        let deliver: DirectDelivery = { object, oldValue, newValue, mutation in
            // The list belongs to the observed instance and its setter passes that instance.
            let root = unsafeDowncast(object, to: Root.self)
            let old = oldValue.assumingMemoryBound(to: Value.self)
            if let newValue {
                let new = newValue.assumingMemoryBound(to: Value.self)
                handler(root, options.change(
                    old: old.pointee, new: new.pointee, isPrior: false, keyPath: keyPath, mutation: mutation))
            } else {
                handler(root, options.change(old: old.pointee, new: nil, isPrior: true, keyPath: keyPath))
            }
        }
        return DirectRoute(deliver: deliver, keyPath: keyPath, slotOffset: slotOffset)
    }
}

/// An observation of one `@Observed` property of the observed object itself (`\.name`).
///
/// Registered directly in the property's list and fed the setter's own old and new values: no key
/// path evaluation, no boxing, one virtual call and one thunk call per notification.
final class DirectObservation: ListEntry, ObservationCore, @unchecked Sendable {
    private let list: ObserverList
    private let deliver: DirectDelivery
    private let onObservedDeallocated: DeallocationHook?
    private let active = Atomic<Bool>(true)

    init(list: ObserverList, options: ObservationOptions, onObservedDeallocated: DeallocationHook?,
         deliver: @escaping DirectDelivery) {
        self.list = list
        self.deliver = deliver
        self.onObservedDeallocated = onObservedDeallocated
        super.init(wantsWillChange: options.contains(.prior))
    }

    /// Adds the observation to its list; it is ended at once if the object is being deallocated.
    func register() {
        if !list.add(self) { active.store(false, ordering: .releasing) }
    }

    var isActive: Bool { active.load(ordering: .acquiring) }

    func cancel() {
        if active.exchange(false, ordering: .acquiringAndReleasing) {
            list.remove(self)
        }
    }

    override func willChange(_ object: AnyObject, _ oldValue: UnsafeRawPointer) {
        guard isActive else { return }
        deliver(object, oldValue, nil, nil)
    }

    override func didChange(_ object: AnyObject, _ oldValue: UnsafeRawPointer, _ newValue: UnsafeRawPointer,
                            _ mutation: CollectionMutation?) {
        guard isActive else { return }
        deliver(object, oldValue, newValue, mutation)
    }

    override func listEnded() {
        if active.exchange(false, ordering: .acquiringAndReleasing) {
            onObservedDeallocated?()
        }
    }
}
