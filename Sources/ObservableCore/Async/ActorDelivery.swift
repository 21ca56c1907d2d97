/// An observation whose handler runs on an actor: its source's changes are queued and delivered on
/// the actor in order, never after `cancel()` returned. A change made on the actor is delivered at
/// once (`Task.immediate` tells, or the main thread on Apple platforms). The source's handler and
/// each job hold it, so it never goes while active.
@usableFromInline
final class ActorDelivery<Value: Sendable>: AnyObservation, @unchecked Sendable {
    @usableFromInline typealias Handler = (ObservedChange<Value>) -> Void
    @usableFromInline typealias Job = @isolated(any) () async -> Void

    /// Isolated to the actor: called by `drain` only, which runs on it.
    @usableFromInline let handler: Handler
    /// The actor is the main actor: on Apple platforms `MainThread` tells whether a change is made on it.
    @usableFromInline let isMainActor: Bool
    @usableFromInline let lock = Lock()
    // Guarded by `lock`.
    @usableFromInline var queued: [ObservedChange<Value>] = []
    @usableFromInline var isDraining = false
    @usableFromInline var isJobScheduled = false
    @usableFromInline var sourceHasEnded = false
    @usableFromInline var source: ObservationToken?
    /// Drains on the actor; `nil` once ended, which releases what it captured (this observation).
    @usableFromInline var job: Job?

    @usableFromInline
    init(isMainActor: Bool, handler: @escaping Handler) {
        self.isMainActor = isMainActor
        self.handler = handler
        super.init()
    }

    /// Made where the caller is isolated to `actor`, the only place a closure isolated to a given
    /// actor can be written: `job`. (Optional only because the caller's is: never `nil`.)
    @inlinable
    static func make(isolation actor: isolated (any Actor)?, handler: @escaping Handler) -> ActorDelivery {
        let delivery = ActorDelivery(isMainActor: actor === MainActor.shared, handler: handler)
        let job: Job = {
            _ = actor  // Captured, so that the closure is isolated to it.
            delivery.drain()
        }
        delivery.lock.withLock { delivery.job = job }
        return delivery
    }

    /// Takes the source's token, cancelled with this one; an inactive source ends this one too.
    @usableFromInline
    func attach(_ source: ObservationToken, sourceIsActive: Bool) {
        lock.withLock { self.source = source }
        if !sourceIsActive { sourceDidEnd() }
    }

    @usableFromInline
    enum Delivery {
        case none
        case here
        /// Start `job`: `immediately` runs it at once if the caller is on the actor.
        case start(Job, immediately: Bool)
    }

    /// The source's handler: queues `change` and delivers it now if the caller is on the actor.
    @inlinable
    func enqueue(_ change: ObservedChange<Value>) {
        guard isActive else { return }
        let onActor = isMainActor ? MainThread.isCurrent : nil
        let delivery = lock.withLock { () -> Delivery in
            guard let job else { return .none }
            queued.append(change)
            // A drain is running on the actor, here (a handler's own set) or on another thread: it
            // takes this change after the ones before it.
            if isDraining { return .none }
            switch onActor {
            case true?:
                return .here
            case nil where Self.canRunImmediately:
                return .start(job, immediately: true)
            default:
                if isJobScheduled { return .none }
                isJobScheduled = true
                return .start(job, immediately: false)
            }
        }
        switch delivery {
        case .none:
            break
        case .here:
            drain()
        case .start(let job, let immediately):
            Self.start(job, immediately: immediately)
        }
    }

    /// Whether `Task.immediate` is there to tell, for an actor other than the main actor, whether the
    /// caller is on it.
    @inlinable
    static var canRunImmediately: Bool {
        if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) { return true }
        return false
    }

    /// Starts `job` as a task on its actor; `immediately`, where `Task.immediate` exists, runs it at
    /// once when the caller is on that actor.
    @inlinable
    static func start(_ job: @escaping Job, immediately: Bool) {
        nonisolated(unsafe) let job = job  // It holds only this `Sendable` observation.
        if immediately, #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
            Task.immediate(operation: job)
            return
        }
        Task(operation: job)
    }

    /// Delivers the queued changes in order, including those queued meanwhile.
    @inlinable
    func drain() {
        let claimed = lock.withLock { () -> Bool in
            isJobScheduled = false
            if isDraining { return false }
            isDraining = true
            return true
        }
        guard claimed else { return }
        while true {
            var batch: [ObservedChange<Value>] = []
            let isDone = lock.withLock { () -> Bool in
                swap(&batch, &queued)
                if batch.isEmpty || !isActive {
                    isDraining = false
                    return true
                }
                return false
            }
            if isDone { break }
            for change in batch {
                guard isActive else { break }
                handler(change)
            }
        }
        endIfDrained()
    }

    /// The source ended because its object was deallocated: this observation ends once the changes
    /// queued before are delivered.
    @usableFromInline
    func sourceDidEnd() {
        endIfDrained(sourceHasEnded: true)
    }

    /// Ends the observation if its source has ended and nothing is left to deliver.
    @usableFromInline
    func endIfDrained(sourceHasEnded hasEnded: Bool = false) {
        let isDrained = lock.withLock { () -> Bool in
            if hasEnded { sourceHasEnded = true }
            return sourceHasEnded && queued.isEmpty && !isDraining
        }
        if isDrained, claimEnd() { releaseJob() }
    }

    override func didCancel() {
        var dropped: [ObservedChange<Value>] = []
        let (source, job) = lock.withLock { () -> (ObservationToken?, Job?) in
            swap(&dropped, &queued)
            return (self.source, self.job.take())
        }
        source?.cancel()
        // The dropped changes and the job go here, after the lock: their `deinit`s may be user code.
        withExtendedLifetime((dropped, job)) {}
    }

    /// Drops `job` once the observation has ended: the reference it holds to this observation goes.
    @usableFromInline
    func releaseJob() {
        let job = lock.withLock { self.job.take() }
        withExtendedLifetime(job) {}
    }
}
