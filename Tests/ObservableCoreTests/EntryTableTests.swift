import Testing

@testable import ObservableCore

/// `EntryTable`'s operations on its hand-allocated memory, with the entries' lifetimes: each slot's
/// reference is taken, moved or released exactly once. Run under AddressSanitizer in `.ci/run`, which
/// also catches any read or write outside the allocation.
@Suite("Entry table")
struct EntryTableTests {
    private static func entry() -> ListEntry {
        ListEntry(options: [.old, .new]) { _, _, _, _, _, _ in }
    }

    /// Entries, and weak references that say when each is freed.
    private static func entries(_ count: Int) -> (strong: [ListEntry], weak: [() -> ListEntry?]) {
        let strong = (0..<count).map { _ in entry() }
        let weak: [() -> ListEntry?] = strong.map { entry in { [weak entry] in entry } }
        return (strong, weak)
    }

    /// A table of `capacity` holding `entries`, in order.
    private static func table(holding entries: [ListEntry], capacity: Int) -> ObserverList.EntryTable {
        let table = ObserverList.EntryTable.allocate(capacity: capacity)
        for entry in entries { table.append(entry) }
        return table
    }

    private static func identities(_ table: ObserverList.EntryTable) -> [ObjectIdentifier?] {
        (0..<table.count).map { index in table[index].map { ObjectIdentifier($0.takeUnretainedValue()) } }
    }

    @Test("appended entries are held by the table, in order, until it is destroyed")
    func appendAndDestroy() {
        var (strong, weak) = Self.entries(3)
        let table = Self.table(holding: strong, capacity: 4)
        #expect(table.count == 3 && table.capacity == 4)
        #expect(Self.identities(table) == strong.map { ObjectIdentifier($0) })
        strong.removeAll()
        #expect(weak.allSatisfy { $0() != nil })
        table.destroy()
        #expect(weak.allSatisfy { $0() == nil })
    }

    @Test("growing moves the entries, keeping places, counts and one reference each")
    func grow() {
        var (strong, weak) = Self.entries(4)
        let small = Self.table(holding: strong, capacity: 4)
        let grown = small.grown(to: 9)
        #expect(grown.capacity == 9 && grown.count == 4)
        #expect(Self.identities(grown) == strong.map { ObjectIdentifier($0) })
        strong.removeAll()
        #expect(weak.allSatisfy { $0() != nil })
        grown.destroy()
        #expect(weak.allSatisfy { $0() == nil })
    }

    @Test("a copy holds its own references: each table keeps the entries until it is destroyed")
    func copy() {
        var (strong, weak) = Self.entries(3)
        let table = Self.table(holding: strong, capacity: 4)
        _ = table.take(at: 1)?.release()
        let copy = table.copy(capacity: 8)
        #expect(copy.capacity == 8)
        #expect(Self.identities(copy) == [ObjectIdentifier(strong[0]), nil, ObjectIdentifier(strong[2])])
        strong.removeAll()
        #expect(weak[1]() == nil)
        table.destroy()
        #expect(weak[0]() != nil && weak[2]() != nil)
        copy.destroy()
        #expect(weak.allSatisfy { $0() == nil })
    }

    @Test("taking leaves a hole; trimming drops trailing holes; compacting renumbers the rest")
    func holes() {
        var (strong, weak) = Self.entries(5)
        let table = ObserverList.EntryTable.allocate(capacity: 8)
        for (index, entry) in strong.enumerated() {
            entry.index = index
            table.append(entry)
        }
        let taken = [table.take(at: 1), table.take(at: 4)]
        #expect(taken.map { $0?.toOpaque() } == [strong[1], strong[4]].map { Unmanaged.passUnretained($0).toOpaque() })
        for entry in taken { entry?.release() }
        table.trimTrailingHoles()
        #expect(table.count == 4)
        table.compact()
        #expect(Self.identities(table) == [0, 2, 3].map { ObjectIdentifier(strong[$0]) })
        #expect([0, 2, 3].map { strong[$0].index } == [0, 1, 2])
        strong.removeAll()
        #expect(weak.map { $0() != nil } == [true, false, true, true, false])
        table.destroy()
        #expect(weak.allSatisfy { $0() == nil })
    }

    @Test("taking all empties the table and hands over its references; retained entries are extra ones")
    func takeAllAndRetained() {
        var (strong, weak) = Self.entries(3)
        let table = Self.table(holding: strong, capacity: 4)
        let retained = table.retainedEntries()
        let all = table.takeAll()
        #expect(table.count == 0)
        #expect(all.map { $0.toOpaque() } == retained.map { $0?.toOpaque() })
        table.deallocate()
        strong.removeAll()
        for entry in all { entry.release() }
        #expect(weak.allSatisfy { $0() != nil })
        for entry in retained { entry?.release() }
        #expect(weak.allSatisfy { $0() == nil })
    }
}
