import Synchronization

/// A non-recursive mutex guarding the mutable fields of the class that owns it.
///
/// `Mutex.withLock` insists that state crossing the lock be `sending`; our guarded state lives in the
/// owning class's fields instead (those classes are `@unchecked Sendable` and touch the fields only
/// inside `withLock`), so this wraps the same futex-based mutex with a plain closure API.
/// Rule of the house: never run user code (callbacks, or a `deinit` via a last release) while it is held.
struct Lock: ~Copyable, @unchecked Sendable {
    private let mutex = Mutex<Void>(())

    @inline(__always)
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        mutex._unsafeLock()
        defer { mutex._unsafeUnlock() }
        return try body()
    }
}
