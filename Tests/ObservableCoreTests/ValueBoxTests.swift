import Foundation
import Testing

@testable import ObservableCore

/// `ValueBox` in the cells a plan keeps (`SpareCells`): each value destroyed exactly once, a cell
/// reused after it is given back, two kept and a third freed, and cells passed between threads with
/// none shared by two boxes. Run under AddressSanitizer and ThreadSanitizer in `.ci/run`.
@Suite("Value boxes and their spare cells")
struct ValueBoxTests {
    final class Tracked {
        let value: Int
        init(_ value: Int) { self.value = value }
    }

    @Test("a boxed value is read in place and destroyed once, when its box is")
    func lifetime() {
        let spare = SpareCells()
        weak var watched: Tracked?
        var tracked: Tracked? = Tracked(7)
        watched = tracked
        let box = ValueBox(tracked.unsafelyUnwrapped, in: spare)
        tracked = nil
        #expect(watched != nil)
        #expect(box.borrowed.read(as: Tracked.self).value == 7)
        box.destroy(as: Tracked.self, into: spare)
        #expect(watched == nil)
    }

    @Test("a cell given back is the next box's; two are kept, a third is freed")
    func reuse() {
        let spare = SpareCells()
        let first = ValueBox("a", in: spare)
        let second = ValueBox("b", in: spare)
        let third = ValueBox("c", in: spare)
        let addresses = [first, second, third].map { $0.borrowed.address }
        #expect(Set(addresses).count == 3)
        for box in [first, second, third] { box.destroy(as: String.self, into: spare) }
        // The first two given back are kept; the third was freed (LeakSanitizer checks it is not lost).
        let again = [ValueBox("d", in: spare), ValueBox("e", in: spare)]
        #expect(Set(again.map(\.borrowed.address)) == Set(addresses.prefix(2)))
        #expect(again.map { $0.borrowed.read(as: String.self) } == ["d", "e"])
        let fresh = ValueBox(of: String.self, in: spare) { $0.initializeMemory(as: String.self, to: "f") }
        #expect(!addresses.prefix(2).contains(fresh.borrowed.address))
        #expect(fresh.borrowed.read(as: String.self) == "f")
        for box in again + [fresh] { box.destroy(as: String.self, into: spare) }
    }

    @Test("a value destroyed in place by code of its type gives its cell back once, for the next box")
    func destroyedInPlace() {
        let spare = SpareCells()
        weak var watched: Tracked?
        var tracked: Tracked? = Tracked(3)
        watched = tracked
        let box = ValueBox(tracked.unsafelyUnwrapped, in: spare)
        tracked = nil
        // As a re-wire's delivery does: typed, at the box's address.
        box.address.assumingMemoryBound(to: Tracked.self).deinitialize(count: 1)
        #expect(watched == nil)
        box.giveBackDestroyed(into: spare)
        let next = ValueBox(Tracked(4), in: spare)
        #expect(next.borrowed.address == box.borrowed.address)
        #expect(next.borrowed.read(as: Tracked.self).value == 4)
        next.destroy(as: Tracked.self, into: spare)
    }

    @Test("boxes made and destroyed on four threads at once: every value intact, none destroyed twice")
    func concurrent() {
        let spare = SpareCells()
        let destroyed = Counter()
        let shared = Counter()
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<5_000 {
                let tracked = Tracked(thread * 10_000 + index)
                let box = ValueBox(CountedValue(tracked: tracked, destroyed: destroyed), in: spare)
                let read = box.borrowed.read(as: CountedValue.self)
                if read.tracked !== tracked { shared.increment() }
                box.destroy(as: CountedValue.self, into: spare)
            }
        }
        #expect(shared.value == 0)
        #expect(destroyed.value == 4 * 5_000)
    }

    struct CountedValue {
        let tracked: Tracked
        let token: Token

        init(tracked: Tracked, destroyed: Counter) {
            self.tracked = tracked
            self.token = Token(destroyed)
        }
    }

    /// Counts its deinitialisations: how many values were destroyed.
    final class Token: @unchecked Sendable {
        let counter: Counter
        init(_ counter: Counter) { self.counter = counter }
        deinit { counter.increment() }
    }

    final class Counter: @unchecked Sendable {  // `count` guarded by `lock`
        private let lock = NSLock()
        private var count = 0
        var value: Int { lock.withLock { count } }
        func increment() { lock.withLock { count += 1 } }
    }
}
