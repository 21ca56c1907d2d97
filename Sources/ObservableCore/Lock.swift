import Synchronization
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// A non-recursive mutex guarding the mutable fields of the class that owns it.
///
/// A `pthread_mutex_t` rather than `Synchronization.Mutex`: ThreadSanitizer intercepts pthread
/// mutexes, while `Mutex`'s futex path is invisible to it (Swift 6.3 on Linux reports a race on every
/// access it guards), and the library must stay clean under TSan for its users too. The guarded state
/// lives in the owning class's fields (those classes are `@unchecked Sendable` and touch the fields
/// only inside `withLock`). Rule of the house: never run user code (callbacks, or a `deinit` through
/// a last release) while it is held.
struct Lock: ~Copyable, @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "ObservableCore: pthread_mutex_init failed (\(status))")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    @inline(__always)
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// A tiny spin lock for critical sections of a few instructions (an observer list's registrations
/// and cancellations; a set never takes it). One compare-and-swap to take it and one store to give
/// it back, against two calls into pthreads; a waiter spins briefly, then yields its time slice.
/// Built on inlined atomics, so ThreadSanitizer sees its acquire/release ordering.
/// Same rule: never run user code while holding it.
struct SpinLock: ~Copyable, @unchecked Sendable {
    private let locked = Atomic<Bool>(false)

    @inline(__always)
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { locked.store(false, ordering: .releasing) }
        return try body()
    }

    @inline(__always)
    private func lock() {
        if locked.compareExchange(expected: false, desired: true, successOrdering: .acquiring, failureOrdering: .relaxed).exchanged {
            return
        }
        lockContended()
    }

    @inline(never)
    private func lockContended() {
        var spins = 0
        while true {
            if !locked.load(ordering: .relaxed),
               locked.compareExchange(expected: false, desired: true, successOrdering: .acquiring, failureOrdering: .relaxed).exchanged {
                return
            }
            spins += 1
            if spins < 64 { continue }
            sched_yield()
        }
    }
}
