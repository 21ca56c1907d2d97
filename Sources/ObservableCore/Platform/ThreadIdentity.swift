#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// The calling thread's identity: how an editor tells the sets it makes itself (reverting, undoing)
/// from the sets other threads make meanwhile. Never zero for a live thread.
enum ThreadIdentity {
    static var current: UInt {
        #if canImport(Glibc)
        UInt(pthread_self())
        #else
        UInt(bitPattern: pthread_self())
        #endif
    }
}
