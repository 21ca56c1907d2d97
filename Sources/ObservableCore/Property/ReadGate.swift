import Synchronization

/// The one word through which sets read an `ObserverList`'s table without its lock, and by which a
/// change knows whether to write the table in place or copy it. Assumes changes are serialised by
/// the list's lock. Proved by `ReadGateTests` and `StressTests` (TSan).
///
/// ```
///  bits 0..<32   readers     sets reading the published table now
///  bit  32       hasRetired  tables replaced while read, freed by the last reader
///  bit  33       writing     a change is writing the published table in place
///  bit  34       watched     sets are counted in their thread's `SetExtent`; never cleared
///  bits 35...    stamp       sets begun, wrapping: a set's own stamp
/// ```
@usableFromInline
struct ReadGate: ~Copyable {
    @usableFromInline let word = Atomic<Int>(0)

    @inlinable static var readerMask: Int { (1 << 32) - 1 }
    @inlinable static var hasRetired: Int { 1 << 32 }
    @inlinable static var writing: Int { 1 << 33 }
    @inlinable static var watched: Int { 1 << 34 }
    @inlinable static var setBegun: Int { 1 << 35 }
    @inlinable static var stampMask: Int { ~(setBegun - 1) }
    /// Not a set's stamp: a change announced by hand.
    static var unstamped: Int { 1 }

    init() {}

    /// Counts a set as a reader and returns its stamp. `mustWait`: a change writes in place (wait
    /// while `isWriting`) or the list is watched; one test, so an unwatched set pays nothing.
    @inlinable
    func beginRead() -> (stamp: Int, mustWait: Bool) {
        let state = word.wrappingAdd(1 &+ Self.setBegun, ordering: .acquiring).newValue
        return (state & Self.stampMask, state & (Self.writing | Self.watched) != 0)
    }

    var isWriting: Bool { word.load(ordering: .acquiring) & Self.writing != 0 }

    /// Ends a read; `true` when the last reader must reclaim retired tables, or the list is watched.
    @inlinable
    func endRead() -> Bool {
        let state = word.wrappingSubtract(1, ordering: .releasing).newValue
        guard state & (Self.hasRetired | Self.watched) != 0 else { return false }
        return state & Self.watched != 0 || state & Self.readerMask == 0
    }

    var isWatched: Bool { word.load(ordering: .relaxed) & Self.watched != 0 }

    var hasRetiredTables: Bool { word.load(ordering: .acquiring) & Self.hasRetired != 0 }

    /// Watches the list from now on, never undone, so every set counted on entry is counted on exit.
    func watch() {
        word.bitwiseOr(Self.watched, ordering: .relaxed)
    }

    var stamp: Int { word.load(ordering: .relaxed) & Self.stampMask }

    // Changes, under the list's lock.

    var hasReaders: Bool { word.load(ordering: .acquiring) & Self.readerMask != 0 }

    /// Claims the table for a change in place: `true` when no set reads it, `false` to copy instead.
    @inline(__always)
    func tryBeginWriting() -> Bool {
        var state = word.load(ordering: .relaxed)
        while state & Self.readerMask == 0 {
            let (exchanged, current) = word.compareExchange(
                expected: state, desired: state | Self.writing, ordering: .acquiring)
            if exchanged { return true }
            state = current
        }
        return false
    }

    @inline(__always)
    func endWriting() {
        word.bitwiseAnd(~Self.writing, ordering: .releasing)
    }

    /// Records a table replaced while read; `true` when every reader had left, so the change frees it.
    @inline(__always)
    func markRetired() -> Bool {
        word.bitwiseOr(Self.hasRetired, ordering: .acquiringAndReleasing).oldValue & Self.readerMask == 0
    }

    func clearRetired() {
        word.bitwiseAnd(~Self.hasRetired, ordering: .relaxed)
    }
}
