import Foundation
import Testing

@testable import ObservableCore

/// `SpareAccessRecord`: a record given back is the next one taken, emptied with its capacity kept and
/// its reads released; a second given back while the spare is full is dropped; and records passed
/// between threads are never held by two at once. Run under ThreadSanitizer in `.ci/run`.
@Suite("Access records and their spare")
struct AccessRecordTests {
    @Test("a record given back is taken again, empty, its capacity kept and its lists released")
    func reuse() {
        let spare = SpareAccessRecord()
        let record = spare.take()
        weak var watched: ObserverList?
        do {
            let list = ObserverList()
            watched = list
            record.lists.append(list)
            record.lists.append(list)
        }
        let capacity = record.lists.capacity
        spare.giveBack(record)
        #expect(watched == nil)
        let again = spare.take()
        #expect(again === record)
        #expect(again.lists.isEmpty && again.lists.capacity == capacity)
        #expect(spare.take() !== record)
    }

    @Test("with the spare full, a record given back is released")
    func full() {
        let spare = SpareAccessRecord()
        let kept = spare.take()
        weak var dropped: AccessRecord?
        do {
            let other = spare.take()
            dropped = other
            spare.giveBack(kept)
            spare.giveBack(other)
        }
        #expect(dropped == nil)
        #expect(spare.take() === kept)
    }

    @Test("four threads taking and giving back one spare: no record is held by two at once")
    func concurrent() {
        let spare = SpareAccessRecord()
        let list = ObserverList()
        let holders = Holders()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<5_000 {
                let record = spare.take()
                holders.enter(record)
                record.lists.append(list)
                holders.leave(record)
                spare.giveBack(record)
            }
        }
        #expect(holders.overlaps == 0)
    }

    /// The records held now, and how often one was taken while already held.
    final class Holders: @unchecked Sendable {  // guarded by `lock`
        private let lock = NSLock()
        private var held: Set<ObjectIdentifier> = []
        private(set) var overlaps = 0

        func enter(_ record: AccessRecord) {
            lock.withLock { if !held.insert(ObjectIdentifier(record)).inserted { overlaps += 1 } }
        }

        func leave(_ record: AccessRecord) {
            lock.withLock { _ = held.remove(ObjectIdentifier(record)) }
        }
    }
}
