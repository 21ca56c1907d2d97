#if canImport(Darwin)
import Darwin
#endif

/// Whether the calling thread is the main thread, where that tells whether the caller is on the main
/// actor.
///
/// On Apple platforms the main actor runs on the main thread, and `pthread_main_np` is the test the
/// Swift runtime itself makes for the main actor outside a task. Elsewhere `nil`: on Linux, for one,
/// `dispatchMain()` (which an `async` main runs) ends the main thread and runs the main queue on
/// another, so the thread says nothing. Proved by `ActorDeliveryTests`.
@usableFromInline
enum MainThread {
    @inlinable
    static var isCurrent: Bool? {
        #if canImport(Darwin)
        return pthread_main_np() != 0
        #else
        return nil
        #endif
    }
}
