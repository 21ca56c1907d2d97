import Synchronization

/// The lock of short critical sections that call no user code (an observer list's registrations and
/// cancellations, the key path table, a controller's table, a path observation's links; a set never
/// takes one). Same rule as `Lock`: never run user code while holding it.
///
/// On Apple platforms it is `Synchronization.Mutex` (`os_unfair_lock`), which costs the same as a spin
/// lock uncontended and lets the kernel boost a preempted holder of lower priority, where spinning
/// would invert priorities. On Linux it is a compare-and-swap spin lock on inlined atomics (one atomic
/// operation to take it, one store to give it back, where a pthread mutex costs two calls, and
/// ThreadSanitizer sees its ordering, which it does not for `Mutex` there); its sections are a few
/// instructions, so it is faster than a pthread mutex there, contended too.
struct ShortLock: ~Copyable, @unchecked Sendable {
    #if canImport(Darwin)
    private let mutex = Mutex(())

    @inline(__always)
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        try mutex.withLock { _ in try body() }
    }
    #else
    private let locked = Atomic<Bool>(false)

    @inline(__always)
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { locked.store(false, ordering: .releasing) }
        return try body()
    }

    @inline(__always)
    private func lock() {
        if locked.compareExchange(
            expected: false, desired: true, successOrdering: .acquiring, failureOrdering: .relaxed
        ).exchanged {
            return
        }
        lockContended()
    }

    @inline(never)
    private func lockContended() {
        var backoff = Backoff()
        while locked.load(ordering: .relaxed)
            || !locked.compareExchange(
                expected: false, desired: true, successOrdering: .acquiring, failureOrdering: .relaxed
            ).exchanged
        {
            backoff.pause()
        }
    }
    #endif
}
