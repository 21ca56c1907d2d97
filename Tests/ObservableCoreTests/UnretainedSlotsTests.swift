import Testing

@testable import ObservableCore

/// `UnretainedSlots`, the lock-free cache in front of `KeyPathResolutions`: run under
/// ThreadSanitizer and AddressSanitizer in `.ci/run`, which see an unpublished or freed object read.
@Suite("Unretained slots")
struct UnretainedSlotsTests {
    private final class Item: Sendable {
        let slot: Int
        let serial: Int
        init(slot: Int, serial: Int) {
            self.slot = slot
            self.serial = serial
        }
    }

    /// Noncopyable slots, shared by the test's threads.
    private final class Shared: Sendable {
        let slots = UnretainedSlots<Item>(count: 4)
    }

    @Test("an empty slot reads nil; a stored object is read back until replaced, and never retained")
    func storeAndRead() {
        let slots = UnretainedSlots<Item>(count: 8)
        #expect(slots.count == 8)
        #expect(slots.withObject(at: 3) { $0.serial } == nil)
        var first: Item? = Item(slot: 3, serial: 1)
        weak let firstFreed = first
        let second = Item(slot: 3, serial: 2)
        slots.store(first!, at: 3)
        #expect(slots.withObject(at: 3) { $0.serial } == 1)
        #expect(slots.withObject(at: 2) { $0.serial } == nil)
        slots.store(second, at: 3)
        #expect(slots.withObject(at: 3) { $0.serial } == 2)
        first = nil
        #expect(firstFreed == nil)
        withExtendedLifetime(second) {}
    }

    @Test("threads storing into and reading the same slots read only whole objects stored there")
    func concurrent() async {
        let shared = Shared()
        // Kept for the slots' lifetime, as the slots assume.
        let items = (0..<4_000).map { Item(slot: $0 % 4, serial: $0) }
        let bad = await withTaskGroup(of: Int.self) { group in
            for thread in 0..<4 {
                group.addTask {
                    var bad = 0
                    for round in 0..<1_000 {
                        let item = items[round * 4 + thread]
                        shared.slots.store(item, at: item.slot)
                        for slot in 0..<4 {
                            let read = shared.slots.withObject(at: slot) { ($0.slot, $0.serial) }
                            if let read, read.0 != slot || read.1 % 4 != slot || read.1 >= items.count { bad += 1 }
                        }
                    }
                    return bad
                }
            }
            return await group.reduce(0, +)
        }
        #expect(bad == 0)
        #expect(shared.slots.withObject(at: 0) { $0.slot } == 0)
        withExtendedLifetime(items) {}
    }
}
