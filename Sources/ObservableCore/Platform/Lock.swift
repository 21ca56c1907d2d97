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

/// A non-recursive mutex guarding the mutable fields of the class that owns it. Its one unsafe part,
/// the mutex's own allocation (a `pthread_mutex_t` must not move), is made and freed here.
///
/// A `pthread_mutex_t` rather than `Synchronization.Mutex`: ThreadSanitizer intercepts pthread
/// mutexes, while `Mutex`'s futex path is invisible to it on Linux (it reports a race on every access
/// it guards), and the library must stay clean under TSan for its users too. The guarded state
/// lives in the owning class's fields (those classes are `@unchecked Sendable` and touch the fields
/// only inside `withLock`). Rule of the house: never run user code (callbacks, or a `deinit` through
/// a last release) while it is held.
@usableFromInline
struct Lock: ~Copyable, @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

    @usableFromInline
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

    @inlinable @inline(__always)
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
