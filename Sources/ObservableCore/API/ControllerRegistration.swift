import Synchronization

/// One (object, key path) observation of a controller: the gate every callback passes, and the
/// token of the underlying observation once it exists.
@usableFromInline
final class ControllerRegistration: @unchecked Sendable {
    private let active = Atomic<Bool>(true)
    private let lock = Lock()
    /// The observation's options, for the controller's description.
    let options: ObservationOptions
    /// Guarded by `lock`.
    private var token: ObservationToken?

    init(options: ObservationOptions) {
        self.options = options
    }

    @usableFromInline
    var isActive: Bool { active.load(ordering: .acquiring) }

    /// Active, and its observation can still notify (a path through no `@Observed` property, or an
    /// object being deallocated, gives one that never will). Lock order: the controller's lock, then
    /// this one; this lock never waits for the controller's.
    var isObserving: Bool {
        isActive && lock.withLock { token?.isActive ?? true }
    }

    /// Takes ownership of the started observation, or ends it at once if the registration was
    /// cancelled meanwhile (from inside its `.initial` callback, or by another thread).
    func attach(_ observation: AnyObservation) {
        let token = ObservationToken(observation)
        let unwanted = lock.withLock { () -> ObservationToken? in
            guard isActive else { return token }
            self.token = token
            return nil
        }
        unwanted?.cancel()
    }

    func cancel() {
        guard active.exchange(false, ordering: .acquiringAndReleasing) else { return }
        let token = lock.withLock { () -> ObservationToken? in
            defer { self.token = nil }
            return self.token
        }
        token?.cancel()
    }
}
