import Synchronization

/// What a token refers to: a cancellable observation and its `state`. The observed side owns it; a
/// token keeps only its memory (`unowned`) and retains it after `claimCancel`. Whatever could
/// release its last owner ends it first (`claimEnd`), waiting while a cancel is claimed.
/// Invariant: `state` is `0` before the last owning reference is released.
@usableFromInline
class AnyObservation: @unchecked Sendable {
    /// `1` while active, `cancelling`/`cancellingAwaited` during a cancel, `0` once ended. One byte.
    @usableFromInline
    final let state: Atomic<UInt8>

    @inlinable static var cancelling: UInt8 { 2 }
    /// `cancelling`, and a thread waits for the cancellation to end (parked, see `Parking`).
    static var cancellingAwaited: UInt8 { 3 }

    /// Which API made the observation, for descriptions; set before it is published.
    @usableFromInline @exclusivity(unchecked)
    final var origin = ObservationOrigin.token

    @usableFromInline
    init() {
        self.state = Atomic(1)
    }

    /// An observation never active: what a refused registration returns.
    static func ended() -> AnyObservation {
        let observation = AnyObservation()
        observation.state.store(0, ordering: .relaxed)
        return observation
    }

    /// `false` once cancelled or once the observed object was deallocated.
    @inlinable
    final var isActive: Bool { state.load(ordering: .acquiring) != 0 }

    /// For a token: claims the observation for cancellation, `false` if ended. Reads only `state`, so
    /// works on a deinitialised observation; waits for another thread's claim.
    final func claimCancel() -> Bool {
        claim(settingTo: Self.cancelling)
    }

    /// For a token, after a successful `claimCancel`, retained: ends it and undoes its registration.
    final func finishCancel() {
        if state.exchange(0, ordering: .releasing) == Self.cancellingAwaited {
            Parking.wakeAll(at: UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())) { _ in }
        }
        didCancel()
    }

    /// Cancels for an owner that holds the observation strongly (a controller's registration).
    final func cancelOwned() {
        if claimCancel() { finishCancel() }
    }

    /// Ends the observation for any reason but a token's cancel: `true` for the call that ended it.
    @usableFromInline
    final func claimEnd() -> Bool {
        claim(settingTo: 0)
    }

    /// Moves an active `state` to `newState`: `false` if it had ended; waits out a claim.
    private final func claim(settingTo newState: UInt8) -> Bool {
        var current = state.load(ordering: .acquiring)
        while true {
            if current == 0 { return false }
            if current == Self.cancelling || current == Self.cancellingAwaited {
                waitForCancellation(seen: current)
                current = state.load(ordering: .acquiring)
                continue
            }
            let (exchanged, now) = state.compareExchange(
                expected: current, desired: newState, ordering: .acquiringAndReleasing)
            if exchanged { return true }
            current = now
        }
    }

    /// Blocks until another thread's claimed cancellation ends, having said so in `state`.
    @inline(never)
    private final func waitForCancellation(seen: UInt8) {
        if seen == Self.cancelling,
            !state.compareExchange(
                expected: Self.cancelling, desired: Self.cancellingAwaited, ordering: .acquiringAndReleasing
            ).exchanged
        {
            return
        }
        Parking.wait(at: UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())) {
            let current = state.load(ordering: .acquiring)
            return current == Self.cancelling || current == Self.cancellingAwaited
        }
    }

    /// Undoes the registration after `finishCancel` ended the observation. Overridden.
    func didCancel() {}

    /// What the observation observes, for descriptions; `nil` for none. Overridden.
    func summary() -> ObservationSummary? { nil }
}

/// Told once when an observation ends because its object was deallocated, on the releasing thread.
@usableFromInline
typealias DeallocationHook = @Sendable () -> Void

/// A `DeallocationHook` in one word (an optional function takes two).
final class DeallocationHookBox: Sendable {
    let hook: DeallocationHook

    init(_ hook: @escaping DeallocationHook) {
        self.hook = hook
    }
}
