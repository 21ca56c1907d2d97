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
///
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

    /// Counts a set as a reader and returns its stamp. `mustWait`: a change writes in place (wait
    /// while `isWriting`) or the list is watched; one test, so an unwatched set pays nothing.
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
