#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// Where a thread blocks in the kernel until another wakes it, by address. Assumes a waiter's
/// condition tests what the waker changes in `wakeAll(at:after:)`'s step, both under the bucket's
/// mutex, so no wake-up is lost. Proved by `ShortLockTests`, `StressTests`, `ConcurrencyTests` (TSan).
enum Parking {
    private static let buckets = (0..<64).map { _ in Bucket() }

    /// Blocks while `shouldWait()` is `true`, testing it first and after every wake-up.
    static func wait(at address: UnsafeRawPointer, while shouldWait: () -> Bool) {
        buckets[index(of: address)].wait(while: shouldWait)
    }

    /// Takes `step`, then wakes every thread waiting at `address` (and any other of its bucket).
    /// `step` is told whether a waiter is due to be served first (see `Bucket.isWaiterDue`).
    static func wakeAll(at address: UnsafeRawPointer, after step: (_ isWaiterDue: Bool) -> Void) {
        buckets[index(of: address)].wakeAll(after: step)
    }

    private static func index(of address: UnsafeRawPointer) -> Int {
        let bits = UInt(bitPattern: address)
        return Int(truncatingIfNeeded: ((bits >> 3) &* 0x9E37_79B9_7F4A_7C15) >> 58) & (buckets.count - 1)
    }

    private final class Bucket: @unchecked Sendable {  // its pthread objects are made once, used in place
        private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

        init() {
            mutex.initialize(to: pthread_mutex_t())
            condition.initialize(to: pthread_cond_t())
            let made = (pthread_mutex_init(mutex, nil), pthread_cond_init(condition, nil))
            precondition(made == (0, 0), "ObservableCore: pthread_mutex_init or pthread_cond_init failed")
        }

        func wait(while shouldWait: () -> Bool) {
            pthread_mutex_lock(mutex)
            while shouldWait() { pthread_cond_wait(condition, mutex) }
            pthread_mutex_unlock(mutex)
        }

        func wakeAll(after step: (_ isWaiterDue: Bool) -> Void) {
            pthread_mutex_lock(mutex)
            step(isWaiterDue())
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }

        /// When a waiter was last served first; guarded by `mutex`.
        private var servedAt: UInt64 = 0

        /// Whether a parked thread is served before arrivals: at most once a millisecond per bucket.
        private func isWaiterDue() -> Bool {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let nanoseconds = UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
            guard nanoseconds &- servedAt >= 1_000_000 else { return false }
            servedAt = nanoseconds
            return true
        }
    }
}
