import Testing

@testable import ObservableCore

/// A path observation's changes in flight: each `finish` ends one `begin` of its change and returns
/// the latest old value recorded for it, whether the change began with its old value in one record
/// (a re-wire's) or had it recorded apart (an evaluated change's). Boxes are read, then destroyed.
@Suite("A path observation's changes in flight")
struct ChangesInFlightTests {
    typealias Change = PathObservationBase.ChangeInFlight
    typealias Changes = PathObservationBase.ChangesInFlight

    let spares = RewireSpares()
    let first = Change(source: nil, stamp: 1)
    let second = Change(source: nil, stamp: 2)

    func box(_ value: Int) -> ValueBox { ValueBox(value, in: spares.cells) }

    /// The old value `finish` returns, read and destroyed; `nil` when it returns none.
    func finish(_ change: Change, in changes: inout Changes) -> Int? {
        guard let box = changes.finish(change) else { return nil }
        defer { box.destroy(as: Int.self, into: spares.cells) }
        return box.borrowed.read(as: Int.self)
    }

    @Test("a change begun with its old value ends with it, and leaves nothing")
    func beganKeeping() {
        var changes = Changes()
        changes.begin(first, keeping: box(1))
        #expect(changes.inFlight == 1)
        #expect(finish(first, in: &changes) == 1)
        #expect(changes.isClear)
        #expect(finish(first, in: &changes) == nil)
    }

    @Test("begun twice, each with its old value: the later one ends first, as when recorded apart")
    func nested() {
        var kept = Changes()
        kept.begin(first, keeping: box(1))
        kept.begin(first, keeping: box(2))
        var apart = Changes()
        apart.begin(first)
        apart.recordOldValue(box(1), for: first)
        apart.begin(first)
        apart.recordOldValue(box(2), for: first)
        for changes in [kept, apart] {
            var changes = changes
            #expect(changes.inFlight == 2)
            #expect(finish(first, in: &changes) == 2)
            #expect(changes.inFlight == 1)
            #expect(finish(first, in: &changes) == 1)
            #expect(changes.isClear)
        }
    }

    @Test("an old value recorded apart after a change began with one is the latest")
    func recordedLater() {
        var changes = Changes()
        changes.begin(first, keeping: box(1))
        changes.begin(first)
        changes.recordOldValue(box(2), for: first)
        #expect(finish(first, in: &changes) == 2)
        #expect(changes.inFlight == 1)
        #expect(finish(first, in: &changes) == 1)
        #expect(changes.isClear)
    }

    @Test("begun again without an old value: its first old value stays until the last finish")
    func begunAgainWithout() {
        var changes = Changes()
        changes.begin(first, keeping: box(1))
        changes.begin(first)
        #expect(finish(first, in: &changes) == 1)
        #expect(changes.inFlight == 1)
        #expect(!changes.isEmpty)
        #expect(finish(first, in: &changes) == nil)
        #expect(changes.isClear)
    }

    @Test("changes end in any order, each with its own old value; what is dropped is handed back")
    func interleaved() {
        var changes = Changes()
        changes.begin(first, keeping: box(1))
        changes.begin(second, keeping: box(2))
        #expect(changes.inFlight == 2)
        #expect(finish(first, in: &changes) == 1)
        #expect(changes.inFlight == 1)
        changes.begin(first, keeping: box(3))
        let dropped = changes.removeAll()
        #expect(dropped.map { $0.borrowed.read(as: Int.self) }.sorted() == [2, 3])
        for box in dropped { box.destroy(as: Int.self, into: spares.cells) }
        #expect(finish(second, in: &changes) == nil)
    }
}
