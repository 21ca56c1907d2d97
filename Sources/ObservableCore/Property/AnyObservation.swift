import Synchronization

/// What a token refers to: an observation that can be cancelled, with the `state` that says whether
/// it is still active. The base of the direct observations (through `ListEntry`, whose entries all
/// carry it) and of the path observations.
///
/// A token does not keep its observation alive: the observed side owns it (see `ObservationToken`).
/// The token keeps only the object's *memory* (an `unowned` reference), so it may look at `state`
/// after the observation has been deinitialised, and it takes a strong reference only after
/// claiming the observation for cancellation: `claimCancel` moves `state` from active to
/// `cancelling`, and everything that could release an observation's last owner (the end of its
/// observed object, a path whose dependencies are gone) first ends it through `claimEnd`, which
/// waits while a cancellation is claimed. So a claimed observation is alive until the canceller has
/// retained it and set `state` to `0` (a few instructions; no lock, no user code in between). A
/// thread that must wait says so in `state` (`cancellingAwaited`) and blocks (`Parking`), and the
/// canceller wakes it.
/// Invariant: `state` is `0` before the last owning reference to an observation is released.
///
/// Why not a `weak` reference from the token: the first weak reference to an object allocates a side
/// table and moves the object's reference counts into it, which would weigh on every observe + cancel.
@usableFromInline
class AnyObservation: @unchecked Sendable {
    /// `1` while active, `cancelling` (or `cancellingAwaited`) while a token cancels it, `0` once
    /// ended (cancelled, or its observed object deallocated). One byte, so that the subclasses' small
    /// fields share its word.
    @usableFromInline
    final let state: Atomic<UInt8>

    @inlinable static var cancelling: UInt8 { 2 }
    /// `cancelling`, and a thread waits for the cancellation to end (parked, see `Parking`).
    static var cancellingAwaited: UInt8 { 3 }

    /// Which API made the observation, for descriptions only. Set before the observation is
    /// registered (published), never after. One byte, beside `state`.
    /// (So without run-time exclusivity checks: a check cost more than the write.)
    @usableFromInline @exclusivity(unchecked)
    final var origin = ObservationOrigin.token

    @usableFromInline
    init() {
        self.state = Atomic(1)
    }

    /// An observation that was never active: what a refused registration returns, so that its token
    /// reports `isActive == false` and cancelling it does nothing.
    static func ended() -> AnyObservation {
        let observation = AnyObservation()
        observation.state.store(0, ordering: .relaxed)
        return observation
    }

    /// `false` once cancelled or once the observed object was deallocated.
    @inlinable
    final var isActive: Bool { state.load(ordering: .acquiring) != 0 }

    /// For a token: claims the observation for cancellation, `false` if it has ended already. May be
    /// called on an observation that has been deinitialised (its memory is still allocated; only
    /// `state`, which has no destructor, is read). A cancellation claimed by another thread (two
    /// `cancel()` calls on one token at once) is waited for, so that on return the observation is
    /// ended either way. Lock-free on the token's side; see the type's documentation.
    final func claimCancel() -> Bool {
        claim(settingTo: Self.cancelling)
    }

    /// For a token, after `claimCancel` succeeded and with the observation retained: ends it and
    /// undoes its registration.
    final func finishCancel() {
        if state.exchange(0, ordering: .releasing) == Self.cancellingAwaited {
            Parking.wakeAll(at: UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())) { _ in }
        }
        didCancel()
    }

    /// Cancels as a token does, for an owner that holds the observation strongly (a controller's
    /// registration): no claim needs to keep it alive.
    final func cancelOwned() {
        if claimCancel() { finishCancel() }
    }

    /// Ends the observation for any reason but a token's cancel: `true` for the call that ended it.
    /// Waits while a token holds a claim (which it drops after a few instructions).
    @usableFromInline
    final func claimEnd() -> Bool {
        claim(settingTo: 0)
    }

    /// Moves an active `state` to `newState`: `false` if it had ended; waits while another thread
    /// holds a cancellation claim (a few instructions).
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

    /// Blocks until the cancellation another thread claimed ends, having said so in `state` (from
    /// `seen`), so that its `finishCancel` wakes this thread. Returns at once if `state` moved meanwhile.
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

    /// What the observation observes, for descriptions; `nil` for one that describes nothing.
    /// Overridden.
    func summary() -> ObservationSummary? { nil }
}

/// Told once when an observation ends because its observed object was deallocated (never when it
/// is cancelled). Runs on the thread that released the object, during its deinitialisation.
@usableFromInline
typealias DeallocationHook = @Sendable () -> Void

/// A `DeallocationHook` in one word, for an observation that counts its bytes (a path
/// observation): an optional function takes two.
final class DeallocationHookBox: Sendable {
    let hook: DeallocationHook

    init(_ hook: @escaping DeallocationHook) {
        self.hook = hook
    }
}

/// What an observation observes, for the descriptions of live observations: its key path and
/// options, the API that made it, and, for a path, the root it is evaluated from.
struct ObservationSummary {
    let keyPath: AnyKeyPath
    let options: ObservationOptions
    let origin: ObservationOrigin
    /// A path evaluated after each change of what it read (nested or computed), not one property.
    let isPath: Bool
    /// A path's root, while it lives: its identity and class, without keeping it alive.
    let root: (id: ObjectIdentifier, type: AnyClass)?
    /// Every `@Observed` property of the object, not one key path (`keyPath` means nothing then).
    var isWholeObject = false

}
