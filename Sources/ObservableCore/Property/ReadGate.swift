import Synchronization

/// The one word through which sets read an `ObserverList`'s table without its lock, and by which a
/// change of the list knows whether it may write that table in place or must copy it.
///
/// ```
///  bits 0..<32   readers     sets reading the published table now
///  bit  32       hasRetired  tables replaced while read, waiting for the last reader to leave
///  bit  33       writing     a change is writing the published table in place
///  bit  34       watched     sets of this list are counted in their thread's `SetExtent`; never cleared
///  bits 35...    stamp       sets begun, counted with wrap-around: a set's own stamp
/// ```
///
/// States of one list, and what moves it between them. Sets call `beginRead` and `endRead`; changes,
/// serialised by the list's lock, call the others.
///
/// ```
///   state              operation                       next state
///   idle               beginRead                       reading
///   idle               tryBeginWriting: true           writing (the change edits the table in place)
///   writing            beginRead                       writing (the set counts itself, then waits)
///   writing            endWriting                      idle, or reading if sets began meanwhile
///   reading            tryBeginWriting: false          reading (the change edits a copy instead)
///   reading            markRetired: false              reading + retired (after publishing the copy)
///   reading            endRead by the last reader      idle
///   reading + retired  endRead by the last: true       idle, once that set frees the retired tables
///   (no readers)       markRetired: true               the change frees the retired tables itself
/// ```
///
/// A set's `beginRead` adds one reader and one stamp with a single atomic add; `endRead` subtracts
/// the reader. A carry out of the stamp's top bit is lost without touching the flags.
@usableFromInline
struct ReadGate: ~Copyable {
    @usableFromInline let word = Atomic<Int>(0)

    @inlinable static var readerMask: Int { (1 << 32) - 1 }
    @inlinable static var hasRetired: Int { 1 << 32 }
    @inlinable static var writing: Int { 1 << 33 }
    @inlinable static var watched: Int { 1 << 34 }
    /// One set begun, in the bits above the flags.
    @inlinable static var setBegun: Int { 1 << 35 }
    @inlinable static var stampMask: Int { ~(setBegun - 1) }
    /// Not a set's stamp (a stamp has no bits below `setBegun`): a change announced by hand, whose
    /// values are read when it is delivered.
    static var unstamped: Int { 1 }

    init() {}

    // MARK: Sets

    /// Counts a set as a reader of the published table and returns the set's stamp. When `mustWait`,
    /// a change is writing the table in place (wait for it while `isWriting`: it holds the list's
    /// lock), or the list is watched (enter the set's extent) before reading it. One test for both,
    /// so an unwatched list's set pays nothing for the watch.
    @inlinable
    func beginRead() -> (stamp: Int, mustWait: Bool) {
        let state = word.wrappingAdd(1 &+ Self.setBegun, ordering: .acquiring).newValue
        return (state & Self.stampMask, state & (Self.writing | Self.watched) != 0)
    }

    /// Whether a change is writing the published table in place.
    var isWriting: Bool { word.load(ordering: .acquiring) & Self.writing != 0 }

    /// Ends a read; `true` when this was the last reader and tables were retired meanwhile (the
    /// caller then reclaims them), or when the list is watched (the caller leaves the set's extent).
    @inlinable
    func endRead() -> Bool {
        let state = word.wrappingSubtract(1, ordering: .releasing).newValue
        // One test in the common case, where neither flag is set.
        guard state & (Self.hasRetired | Self.watched) != 0 else { return false }
        return state & Self.watched != 0 || state & Self.readerMask == 0
    }

    /// Whether the list is watched: its sets are counted in their thread's `SetExtent`.
    var isWatched: Bool { word.load(ordering: .relaxed) & Self.watched != 0 }

    /// Whether tables wait to be reclaimed.
    var hasRetiredTables: Bool { word.load(ordering: .acquiring) & Self.hasRetired != 0 }

    /// Watches the list from now on (never undone, so that every set counted on entry is counted
    /// on exit).
    func watch() {
        word.bitwiseOr(Self.watched, ordering: .relaxed)
    }

    /// The stamp of the latest set begun.
    var stamp: Int { word.load(ordering: .relaxed) & Self.stampMask }

    // MARK: Changes (under the list's lock)

    /// Whether sets are reading the published table now.
    var hasReaders: Bool { word.load(ordering: .acquiring) & Self.readerMask != 0 }

    /// Claims the published table for a change in place: `true` when no set was reading (sets that
    /// begin until `endWriting` wait), `false` when some are (the change must copy).
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

    /// Ends a change in place: the table's new contents are visible to the sets that begin next.
    @inline(__always)
    func endWriting() {
        word.bitwiseAnd(~Self.writing, ordering: .releasing)
    }

    /// Records that a table was replaced while read. `true` when every reader had already left, so
    /// that none will reclaim it: the change does.
    @inline(__always)
    func markRetired() -> Bool {
        word.bitwiseOr(Self.hasRetired, ordering: .acquiringAndReleasing).oldValue & Self.readerMask == 0
    }

    /// The retired tables have been taken to be freed.
    func clearRetired() {
        word.bitwiseAnd(~Self.hasRetired, ordering: .relaxed)
    }
}
