import Synchronization

/// A one-byte lock for short sections that call no user code. Contended, a thread sets `parked` and
/// blocks in the kernel (`Parking`); the holder wakes it, or hands the lock over so none starves.
/// Never spins. Assumes one address for every thread (a noncopyable value in an object). Proved by
/// `ShortLockTests`, `StressTests` and `ConcurrencyTests` (TSan).
struct ShortLock: ~Copyable, @unchecked Sendable {
    private let state = Atomic<UInt8>(0)
    private static var locked: UInt8 { 1 }
    private static var parked: UInt8 { 2 }
    /// Set with `locked` by a holder that hands the lock to a parked thread: the first to see it owns
    /// the lock.
    private static var handedOver: UInt8 { 4 }

    init() {}

    @inline(__always)
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }

    @inline(__always)
    private func lock() {
        if state.compareExchange(
            expected: 0, desired: Self.locked, successOrdering: .acquiring, failureOrdering: .relaxed
        ).exchanged {
            return
        }
        lockContended()
    }

    @inline(never)
    private func lockContended() {
        var current = state.load(ordering: .relaxed)
        while true {
            if let owned = Self.owned(from: current) {
                let (exchanged, now) = state.compareExchange(
                    expected: current, desired: owned, successOrdering: .acquiring, failureOrdering: .relaxed)
                if exchanged { return }
                current = now
                continue
            }
            if current & Self.parked == 0 {
                let (exchanged, now) = state.compareExchange(
                    expected: current, desired: current | Self.parked, ordering: .relaxed)
                if !exchanged {
                    current = now
                    continue
                }
            }
            // Asleep while it is taken and `parked` is set: the holder then wakes this thread.
            withUnsafePointer(to: self) { address in
                Parking.wait(at: address) { state.load(ordering: .relaxed) == Self.locked | Self.parked }
            }
            current = state.load(ordering: .relaxed)
        }
    }

    /// The state that makes the lock this thread's from `state`: handed over to the first waiter to
    /// see it, or free; `nil` while another thread holds it.
    @inline(__always)
    private static func owned(from state: UInt8) -> UInt8? {
        if state & handedOver != 0 { return state & ~handedOver }
        return state & locked == 0 ? state | locked : nil
    }

    @inline(__always)
    private func unlock() {
        if state.compareExchange(
            expected: Self.locked, desired: 0, successOrdering: .releasing, failureOrdering: .relaxed
        ).exchanged {
            return
        }
        unlockContended()
    }

    /// Gives the lock back, or hands it over when a waiter is due, and wakes every thread parked on
    /// it: each tries again, and parks again if it loses (setting `parked` anew).
    @inline(never)
    private func unlockContended() {
        withUnsafePointer(to: self) { address in
            Parking.wakeAll(at: address) { isWaiterDue in
                state.store(isWaiterDue ? Self.locked | Self.parked | Self.handedOver : 0, ordering: .releasing)
            }
        }
    }
}
