import Dispatch
import Foundation
import Synchronization

/// Runs each role on its own thread, all released together, and returns when all have finished.
func runConcurrently(_ roles: [@Sendable () -> Void]) {
    final class StartLine: Sendable {
        let arrived = Atomic<Int>(0)
    }
    let start = StartLine()
    let group = DispatchGroup()
    for role in roles {
        group.enter()
        Thread.detachNewThread {
            start.arrived.add(1, ordering: .relaxed)
            while start.arrived.load(ordering: .relaxed) < roles.count { sched_yield() }
            role()
            group.leave()
        }
    }
    group.wait()
}

/// An atomic counter shareable between threads.
final class Counter: Sendable {
    private let value = Atomic<Int>(0)
    func store(_ newValue: Int) { value.store(newValue, ordering: .sequentiallyConsistent) }
    func increment() { value.add(1, ordering: .sequentiallyConsistent) }
    var current: Int { value.load(ordering: .sequentiallyConsistent) }
}

/// A value guarded by a lock that ThreadSanitizer can see (`NSLock` is a pthread mutex; TSan cannot
/// see `Synchronization.Mutex` on Linux and reports every access it guards).
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
