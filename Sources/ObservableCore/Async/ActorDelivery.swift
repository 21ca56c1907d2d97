/// An observation whose handler runs on an actor (`observe(_:options:isolation:_:)`). The changes of
/// an ordinary observation, its `source`, are queued here and delivered on the actor in the order they
/// were made, each only while this observation is active: never after `cancel()` has returned.
///
/// A change made on the actor is delivered at once, on the setting thread, after any still queued;
/// one made elsewhere is queued for a job on the actor. Whether the caller is on the actor is asked of
/// `Task.immediate`, which runs the job at once when the caller is isolated to the job's actor and
/// enqueues it otherwise; on Apple platforms the main actor is recognised by its thread first
/// (`MainThread`), which costs no task. Where `Task.immediate` is missing (before Swift 6.2's runtime)
/// and the thread cannot tell, a change is always delivered by a job.
///
/// Ownership: the source's handler holds this observation, each job holds it until it has run, and
/// `job` (which captures it) holds it until it ends, so that it never goes while active (the
/// invariant of `AnyObservation`). When the observed object is deallocated the source ends, and this
/// observation ends once it has delivered what was queued before.
///
/// `@inlinable` where a change passes, so that it is compiled for the concrete `Value` where
/// `observe` is called, without looking up the generic types' metadata at each delivery.
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

    /// Takes the token of the observation feeding this one, which this one cancels when cancelled.
    /// `sourceIsActive == false` (it read no `@Observed` property, or its object is going) ends this
    /// one too.
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

    /// Delivers the queued changes in order, on the actor, until none is left; a change queued
    /// meanwhile (by a handler, or on another thread) is delivered after the ones before it, in the
    /// same drain.
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
