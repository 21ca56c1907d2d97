import Foundation
import Testing

@testable import ObservableCore

/// State guarded by one `ShortLock`, with what the tests watch: how many threads are inside at once.
private final class Guarded: @unchecked Sendable {  // its fields are touched only under `lock`
    let lock = ShortLock()
    var count = 0
    var inside = 0
    var overlaps = 0
    var order: [String] = []
}

@Suite("ShortLock: a lock that blocks when contended")
struct ShortLockTests {
    @Test("16 threads taking it at once: no increment lost, never two inside", arguments: [0, 50])
    func mutualExclusion(microsecondsInside: Int) {
        let guarded = Guarded()
        let perThread = microsecondsInside == 0 ? 20_000 : 200
        runConcurrently(
            (0..<16).map { _ in
                {
                    for _ in 0..<perThread {
                        guarded.lock.withLock {
                            guarded.inside += 1
                            if guarded.inside != 1 { guarded.overlaps += 1 }
                            // Held a while, so that others park, and the lock is handed over to them.
                            if microsecondsInside > 0 { usleep(UInt32(microsecondsInside)) }
                            guarded.count += 1
                            guarded.inside -= 1
                        }
                    }
                }
            })
        guarded.lock.withLock {
            #expect(guarded.count == 16 * perThread)
            #expect(guarded.overlaps == 0)
            #expect(guarded.inside == 0)
        }
    }

    @Test("a thread that finds it taken waits until it is given back, then takes it")
    func waiterWaitsForTheHolder() {
        let guarded = Guarded()
        let holding = DispatchSemaphore(value: 0)
        runConcurrently([
            {
                guarded.lock.withLock {
                    holding.signal()
                    usleep(50_000)
                    guarded.order.append("holder done")
                }
            },
            {
                holding.wait()
                guarded.lock.withLock { guarded.order.append("waiter in") }
            },
        ])
        guarded.lock.withLock { #expect(guarded.order == ["holder done", "waiter in"]) }
    }

    @Test("it returns what its section returns, and nests with another lock")
    func returnsAndNests() {
        let outer = Guarded()
        let inner = Guarded()
        let value = outer.lock.withLock { inner.lock.withLock { 42 } }
        #expect(value == 42)
    }
}
