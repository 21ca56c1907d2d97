import Testing

@testable import ObservableCore

/// The read gate's operations, one transition of its state table (see `ReadGate`) at a time. The
/// concurrent behaviour is exercised by `StressTests` and `ConcurrencyTests` under ThreadSanitizer.
/// (`ReadGate` is noncopyable, so each result is taken before `#expect` looks at it.)
@Suite("Read gate")
struct ReadGateTests {
    @Test("each set gets a later stamp; the latest is the gate's, and a hand-announced change has none")
    func stamps() {
        let gate = ObserverList.ReadGate()
        let first = gate.beginRead()
        let second = gate.beginRead()
        let latest = gate.stamp
        #expect(!first.mustWait && !second.mustWait)
        #expect(second.stamp == first.stamp + ObserverList.ReadGate.setBegun)
        #expect(latest == second.stamp)
        #expect(first.stamp & ~ObserverList.ReadGate.stampMask == 0)
        #expect(ObserverList.ReadGate.unstamped & ObserverList.ReadGate.stampMask == 0)
        let ends = [gate.endRead(), gate.endRead()]
        #expect(ends == [false, false])
    }

    @Test("while sets read, a change may not write in place; the last reader out reclaims what it retired")
    func readersRetireAndTheLastOneReclaims() {
        let gate = ObserverList.ReadGate()
        _ = gate.beginRead()
        _ = gate.beginRead()
        let reading = gate.hasReaders
        let writes = gate.tryBeginWriting()
        let changeReclaims = gate.markRetired()
        let firstOutReclaims = gate.endRead()
        let lastOutReclaims = gate.endRead()
        let readingAfter = gate.hasReaders
        #expect(reading && !readingAfter)
        #expect(!writes)
        #expect(!changeReclaims)  // readers remained: the last of them reclaims
        #expect(!firstOutReclaims)  // one reader was still in
        #expect(lastOutReclaims)
        gate.clearRetired()
        _ = gate.beginRead()
        let reclaimsAgain = gate.endRead()
        #expect(!reclaimsAgain)  // nothing retired any more
    }

    @Test("with no reader a change writes in place; a set that begins meanwhile is told to wait")
    func writingInPlace() {
        let gate = ObserverList.ReadGate()
        let writes = gate.tryBeginWriting()
        let during = gate.beginRead()
        let writingDuring = gate.isWriting
        gate.endWriting()
        let writingAfter = gate.isWriting
        #expect(writingDuring && !writingAfter)  // the set waits for the writer, then reads
        let duringEnd = gate.endRead()
        let after = gate.beginRead()
        let afterEnd = gate.endRead()
        #expect(writes)
        #expect(during.mustWait)
        #expect(!after.mustWait)
        #expect(!duringEnd && !afterEnd)
    }

    @Test("a table retired when no set reads is reclaimed by the change itself")
    func retiredWithNoReader() {
        let gate = ObserverList.ReadGate()
        let changeReclaims = gate.markRetired()
        gate.clearRetired()
        _ = gate.beginRead()
        let readerReclaims = gate.endRead()
        #expect(changeReclaims)
        #expect(!readerReclaims)
    }

    @Test("a watched list's sets take the slow path in and out, each of them, whatever the other readers")
    func watched() {
        let gate = ObserverList.ReadGate()
        let unwatched = gate.beginRead()
        gate.watch()
        let outer = gate.beginRead()
        let inner = gate.beginRead()
        let innerEnd = gate.endRead()
        let outerEnd = gate.endRead()
        let unwatchedEnd = gate.endRead()
        let watchedStill = gate.isWatched
        #expect(!unwatched.mustWait)
        #expect(outer.mustWait && inner.mustWait)
        #expect(innerEnd && outerEnd && unwatchedEnd)
        #expect(watchedStill)
        #expect(inner.stamp == outer.stamp + ObserverList.ReadGate.setBegun)
        #expect(outer.stamp & ~ObserverList.ReadGate.stampMask == 0)
        let writing = gate.isWriting
        #expect(!writing)  // nobody writes
    }
}
