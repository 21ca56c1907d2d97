import Synchronization

/// What a token (or a controller) holds: something that can be cancelled.
protocol ObservationCore: AnyObject, Sendable {
    /// `false` once cancelled or once the observed object was deallocated.
    var isActive: Bool { get }
    /// Ends the observation: idempotent, callable from any thread and from inside any callback.
    /// After it returns no new callback of this observation starts.
    func cancel()
}

/// Told once when an observation ends because its observed object was deallocated (never when it
/// is cancelled). Runs on the thread that released the object, during its deinitialisation.
typealias DeallocationHook = @Sendable () -> Void

/// An observation of one `@Observed` property of the observed object itself (`\.name`).
///
/// Registered directly in the property's list and fed the setter's own old and new values: no key
/// path evaluation, no boxing, one virtual call per notification.
final class DirectObservation<Root: AnyObject, Value>: Observer<Value>, ObservationCore, @unchecked Sendable {
    private let list: PropertyObservers<Value>
    private let keyPath: AnyKeyPath
    private let options: ObservationOptions
    private let handler: (Root, ObservedChange<Value>) -> Void
    private let onObservedDeallocated: DeallocationHook?
    private let active = Atomic<Bool>(true)

    init(list: PropertyObservers<Value>, keyPath: AnyKeyPath, options: ObservationOptions,
         onObservedDeallocated: DeallocationHook?,
         handler: @escaping (Root, ObservedChange<Value>) -> Void) {
        self.list = list
        self.keyPath = keyPath
        self.options = options
        self.onObservedDeallocated = onObservedDeallocated
        self.handler = handler
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

    func deliverInitial(_ root: Root, _ value: Value) {
        guard isActive else { return }
        handler(root, options.change(old: nil, new: value, isPrior: false, keyPath: keyPath))
    }

    override func willChange(_ object: AnyObject, _ oldValue: Value) {
        guard isActive else { return }
        // The list belongs to the observed instance and the setter passes that instance.
        handler(unsafeDowncast(object, to: Root.self), options.change(old: oldValue, new: nil, isPrior: true, keyPath: keyPath))
    }

    override func didChange(_ object: AnyObject, _ oldValue: Value, _ newValue: Value) {
        guard isActive else { return }
        handler(unsafeDowncast(object, to: Root.self), options.change(old: oldValue, new: newValue, isPrior: false, keyPath: keyPath))
    }

    override func listEnded() {
        if active.exchange(false, ordering: .acquiringAndReleasing) {
            onObservedDeallocated?()
        }
    }
}
