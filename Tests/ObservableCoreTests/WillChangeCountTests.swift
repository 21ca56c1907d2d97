import Testing

@testable import ObservableCore

/// A list's count of what wants `willChange` (`ObserverList.willChangeCount`): each counting entry
/// and a wait for the key once, kept apart from the table, so that a leaf link starting or stopping
/// to hear `willChange` (each re-wire does) changes no table.
@Suite("A list's willChange count")
struct WillChangeCountTests {
    /// An entry that counts from the start (`.prior`), or only once told to.
    private static func entry(counting: Bool) -> ListEntry {
        ListEntry(options: counting ? [.prior] : [.old, .new]) { _, _, _, _, _, _ in }
    }

    private static func count(_ list: ObserverList) -> Int32 {
        list.willChangeCount.load(ordering: .acquiring)
    }

    @Test("each counting entry and a wait for the key count once, until removed, learnt or ended")
    func counts() {
        let list = ObserverList()
        let counting = Self.entry(counting: true)
        let other = Self.entry(counting: false)
        #expect(list.add(counting) && list.add(other))
        #expect(Self.count(list) == 1)

        list.setCountsForWillChange(other, true)
        list.setCountsForWillChange(other, true)
        #expect(Self.count(list) == 2 && other.countsForWillChange)
        list.setCountsForWillChange(other, false)
        #expect(Self.count(list) == 1 && !other.countsForWillChange)

        list.remove(counting)
        list.remove(counting)
        #expect(Self.count(list) == 0)
        list.setCountsForWillChange(counting, true)  // no longer in the list: nothing counted
        #expect(Self.count(list) == 0)

        let waiting = [Self.entry(counting: false), Self.entry(counting: false)]
        for entry in waiting { #expect(list.add(entry, awaitingKey: true)) }
        #expect(Self.count(list) == 1 && list.awaitsPropertyKey)
        let key = ObservedPropertyKey(keyPath: \WillChangeCountTests.self)
        list.learn(key)
        list.learn(key)
        #expect(Self.count(list) == 0 && !list.awaitsPropertyKey)

        list.setCountsForWillChange(other, true)
        #expect(Self.count(list) == 1)
        list.end()
        #expect(Self.count(list) == 0)
        #expect(!list.add(Self.entry(counting: true)) && Self.count(list) == 0)
    }

    @Test("an entry its owner serialises is counted without the lock, once, and its removal takes the count away")
    func ownedEntry() {
        let list = ObserverList()
        let link = Self.entry(counting: false)
        #expect(list.add(link))
        list.setCountsForWillChange(ownedEntry: link, true)
        list.setCountsForWillChange(ownedEntry: link, true)
        #expect(Self.count(list) == 1 && link.countsForWillChange)
        list.setCountsForWillChange(ownedEntry: link, false)
        #expect(Self.count(list) == 0 && !link.countsForWillChange)
        // Counted on a list that then publishes a table without it: the count goes with it, once.
        list.setCountsForWillChange(ownedEntry: link, true)
        list.remove(link)
        list.remove(link)
        #expect(Self.count(list) == 0)
        // Added back while counted (a re-wire moves a link it has made to hear willChange): counted again.
        #expect(list.add(link))
        #expect(Self.count(list) == 1)
        list.end()
        #expect(Self.count(list) == 0)
    }

    @Test("an entry made to hear willChange while a set reads the list leaves the published table in place")
    func noTableChange() {
        let list = ObserverList()
        let entry = Self.entry(counting: false)
        #expect(list.add(entry))
        let before = list.published.load(ordering: .acquiring)
        _ = list.beginRead()
        list.setCountsForWillChange(entry, true)
        #expect(list.published.load(ordering: .acquiring) == before)
        #expect(Self.count(list) == 1)
        // A change of the table itself, while the set reads, is made on a copy: the check above can fail.
        #expect(list.add(Self.entry(counting: false)))
        #expect(list.published.load(ordering: .acquiring) != before)
        list.endRead()
        list.end()
    }
}
