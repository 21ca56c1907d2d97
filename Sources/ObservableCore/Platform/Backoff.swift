#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// How a thread waits for another to finish a step of a few instructions that calls no user code (a
/// token's cancellation claim, an observer list's table changed in place, a `ShortLock` on Linux):
/// spin briefly, then give up the processor on every round, in case the other thread was preempted
/// in the middle of its step. The library's only waiting loop.
struct Backoff {
    private var spins = 0

    /// Called once per failed attempt.
    @inline(never)
    mutating func pause() {
        spins += 1
        if spins >= 64 { sched_yield() }
    }
}
