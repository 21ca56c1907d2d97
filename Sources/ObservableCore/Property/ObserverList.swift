import Synchronization

/// The observations of one property of one instance, in registration order, ended with it.
/// Cancelling leaves a hole, compacted when holes outnumber entries. A set reads the table without
/// lock or reference counting, through `gate`; changes take the lock and never call user code.
@usableFromInline
final class ObserverList: @unchecked Sendable {
    /// Serialises changes (`ObserverListChanges.swift`); a set takes it only to wait for one in place.
    let lock = ShortLock()
    /// Who reads the table, whether a change writes it, and the stamp of the latest set (`LeafPathLink`).
    @usableFromInline let gate = ReadGate()
    /// The table sets read; replaced only under `lock`.
    @usableFromInline let published: Atomic<UnsafeMutableRawPointer>
    @usableFromInline let liveCount = Atomic<Int>(0)
    /// Whether an entry waits to learn the property's key, making sets run `willChange`. Under `lock`.
    @usableFromInline let awaitingKey = Atomic<Bool>(false)
    /// Entries counted as wanting `willChange` (`ListEntry.countsForWillChange`), and one for a wait
    /// for the key: sets that begin afterwards run the `willChange` pass. Written under `lock`.
    @usableFromInline let willChangeCount = Atomic<Int32>(0)
    // Guarded by `lock`.
    @exclusivity(unchecked) var table: EntryTable
    @exclusivity(unchecked) var retired: [EntryTable] = []
    @exclusivity(unchecked) var isEnded = false

    var stamp: Int { gate.stamp }
    /// Not a set's stamp: a change announced by hand.
    static var unstamped: Int { ReadGate.unstamped }

    init() {
        table = EntryTable.allocate(capacity: 4)
        published = Atomic(table.raw)
    }

    deinit {
        table.destroy()
        for old in retired { old.destroy() }
    }

    /// Begins a set's read; the entries stay alive and in place until `endRead()`.
    @inlinable
    func beginRead() -> (table: EntryTable, stamp: Int) {
        let (stamp, mustWait) = gate.beginRead()
        if mustWait { waitForWriter() }
        return (EntryTable(raw: published.load(ordering: .acquiring)), stamp)
    }

    /// Out of line, and of the list, so a set keeps one address in a register; a change in place holds
    /// the lock, so taking it waits, blocking. On a watched list the set enters its extent here.
    @usableFromInline @inline(never)
    func waitForWriter() {
        if gate.isWriting { lock.withLock {} }
        if gate.isWatched { SetExtent.enter(ObjectIdentifier(self)) }
    }

    /// Ends a read; the last reader frees the tables retired while it read.
    @inlinable
    func endRead() {
        if gate.endRead() { afterRead() }
    }

    @usableFromInline @inline(never)
    func afterRead() {
        if gate.hasRetiredTables { reclaimRetired() }
        if gate.isWatched { SetExtent.leave(ObjectIdentifier(self)) }
    }

    func watchSetExtent() {
        gate.watch()
    }

    func reclaimRetired() {
        let freed: FreedTables = lock.withLock {
            // A reader that began since then reads the published table, never a retired one.
            guard !gate.hasReaders else { return nil }
            return takeRetired()
        }
        Self.destroy(freed)
    }

    /// Tables a change retired, to destroy after the lock; usually `nil`, which costs no release.
    typealias FreedTables = [EntryTable]?

    /// Destroys the retired tables, never under the lock (`EntryTable.destroy`).
    @inline(__always)
    static func destroy(_ freed: FreedTables) {
        guard let freed else { return }
        destroyAll(freed)
    }

    private static func destroyAll(_ freed: [EntryTable]) {
        for old in freed { old.destroy() }
    }

    func takeRetired() -> FreedTables {
        guard !retired.isEmpty else { return nil }
        var taken: [EntryTable] = []
        swap(&taken, &retired)
        gate.clearRetired()
        return taken
    }

    /// Whether an entry waits for the key; read without the lock (`learn` looks again under it).
    @inlinable
    var awaitsPropertyKey: Bool { awaitingKey.load(ordering: .relaxed) }
}

// The parts of a list a set reads: its gate, its table, and a run of the table's entries.
extension ObserverList {
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

    /// The entries of one list in one allocation: a header, then `capacity` slots, each `nil` (a hole)
    /// or one strong reference. Not a class nor `ManagedBuffer`: published to sets as a bare pointer.
    /// Assumes `raw` is a live allocation of `allocate(capacity:)`, slots below `count` initialised, and
    /// only the list's lock holder changes it, in place only while no set reads (`ReadGate`). Proved by
    /// `EntryTableTests`, `StressTests`, `ConcurrencyTests` under ASan and TSan.
    @usableFromInline
    struct EntryTable {
        @usableFromInline
        struct Header {
            @usableFromInline var count: Int
            @usableFromInline var capacity: Int
        }

        @usableFromInline let raw: UnsafeMutableRawPointer
        @inlinable static var slotsOffset: Int { MemoryLayout<Header>.stride }

        @inlinable init(raw: UnsafeMutableRawPointer) { self.raw = raw }

        static func allocate(capacity: Int) -> EntryTable {
            let raw = UnsafeMutableRawPointer.allocate(
                byteCount: slotsOffset + capacity * MemoryLayout<Unmanaged<ListEntry>?>.stride,
                alignment: MemoryLayout<Header>.alignment)
            raw.initializeMemory(as: Header.self, to: Header(count: 0, capacity: capacity))
            return EntryTable(raw: raw)
        }

        @inlinable var header: UnsafeMutablePointer<Header> { raw.assumingMemoryBound(to: Header.self) }
        @inlinable var slots: UnsafeMutablePointer<Unmanaged<ListEntry>?> {
            (raw + Self.slotsOffset).assumingMemoryBound(to: Unmanaged<ListEntry>?.self)
        }
        /// Slots in use, holes included.
        @inlinable var count: Int {
            get { header.pointee.count }
            nonmutating set { header.pointee.count = newValue }
        }
        var capacity: Int { header.pointee.capacity }
        /// The entries, for a set with `stamp`.
        @inlinable func run(stamp: Int) -> EntryRun {
            EntryRun(slots: UnsafePointer(slots), count: count, stamp: stamp)
        }

        /// The entry in slot `index` (below `count`), unretained; `nil` for a hole.
        subscript(index: Int) -> Unmanaged<ListEntry>? { slots[index] }

        /// Appends `entry`, retained, at `count`; the caller made room (`capacity > count`).
        func append(_ entry: ListEntry) {
            (slots + count).initialize(to: Unmanaged.passRetained(entry))
            count += 1
        }

        /// Leaves a hole at `index` and returns what was there, with the table's reference to it.
        func take(at index: Int) -> Unmanaged<ListEntry>? {
            let taken = slots[index]
            slots[index] = nil
            return taken
        }

        /// Drops the holes at the end.
        func trimTrailingHoles() {
            while count > 0, slots[count - 1] == nil { count -= 1 }
        }

        /// Moves the entries over the holes, telling each its new index.
        func compact() {
            var used = 0
            for index in 0..<count {
                guard let entry = slots[index] else { continue }
                entry._withUnsafeGuaranteedRef { $0.index = used }
                slots[used] = entry
                used += 1
            }
            count = used
        }

        /// Empties the table and returns its entries, with its references to them.
        func takeAll() -> [Unmanaged<ListEntry>] {
            var taken: [Unmanaged<ListEntry>] = []
            for index in 0..<count {
                if let entry = slots[index] { taken.append(entry) }
            }
            count = 0
            return taken
        }

        /// The entries, each retained again (holes left out).
        func retainedEntries() -> ContiguousArray<Unmanaged<ListEntry>?> {
            var entries = ContiguousArray<Unmanaged<ListEntry>?>()
            for index in 0..<count {
                if let entry = slots[index] { entries.append(entry.retain()) }
            }
            return entries
        }

        /// A new table with the same entries at the same places, each retained again.
        func copy(capacity: Int) -> EntryTable {
            let copy = EntryTable.allocate(capacity: capacity)
            for index in 0..<count {
                (copy.slots + index).initialize(to: slots[index]?.retain())
            }
            copy.count = count
            return copy
        }

        /// A new table of `capacity` with this one's entries moved into it; this one is freed.
        func grown(to capacity: Int) -> EntryTable {
            let grown = EntryTable.allocate(capacity: capacity)
            grown.slots.moveInitialize(from: slots, count: count)
            grown.count = count
            deallocate()
            return grown
        }

        /// Frees the memory, and with it the table's references to its entries: never under a lock
        /// (a last release runs an entry's `deinit`, which runs user code).
        func destroy() {
            for index in 0..<count { slots[index]?.release() }
            raw.deallocate()
        }

        /// Frees the memory only: its references have moved elsewhere, or there are none.
        func deallocate() {
            raw.deallocate()
        }
    }

    /// A borrowed run of list entries: whoever hands it out keeps them alive and in place while used.
    @usableFromInline
    struct EntryRun {
        @usableFromInline let slots: UnsafePointer<Unmanaged<ListEntry>?>
        @usableFromInline let count: Int
        /// The stamp of the set delivered (see `ReadGate`).
        @usableFromInline let stamp: Int

        @inlinable
        init(slots: UnsafePointer<Unmanaged<ListEntry>?>, count: Int, stamp: Int) {
            self.slots = slots
            self.count = count
            self.stamp = stamp
        }
    }
}
