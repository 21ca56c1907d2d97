import Synchronization

/// The observations of one property of one instance, in registration order. Owned by the
/// instance's slot; ended (with every observation in it) when the instance is deallocated.
///
/// Registration appends; cancellation leaves a `nil` hole found through the entry's stored index and
/// compacts when holes outnumber entries, so adding and removing are amortised O(1) and a million
/// observations on one property stay linear.
///
/// A set reads the list without its lock and without reference counting: it enters the `gate` as a
/// reader, reads the published table, calls out, and leaves. Changes (registration, cancellation,
/// the end) take the lock, then either change the table in place, when no set is reading (a set
/// that begins meanwhile waits for the lock: a few instructions, never user code), or copy it, publish
/// the copy and retire the old table, which the last reader to leave (or the next change) frees.
/// `ReadGate` states the protocol. The lock never covers user code.
@usableFromInline
final class ObserverList: @unchecked Sendable {
    /// Serialises changes to the list; a set never takes it.
    private let lock = ShortLock()
    /// Who reads the published table, whether a change writes it, and the stamp of the latest set,
    /// by which a path's leaf link sees that another set of the property began after its own
    /// (`LeafPathLink`).
    @usableFromInline let gate = ReadGate()
    /// The table sets read. Replaced only under `lock`.
    @usableFromInline let published: Atomic<UnsafeMutableRawPointer>
    /// Observations in the list (entries, not holes): a set with none returns at once.
    @usableFromInline let liveCount = Atomic<Int>(0)
    /// Whether an entry waits to learn the property's key (see `ObservedPropertyKey`). While one
    /// does, the table counts one more in its `willChangeCount`, so that a set runs the `willChange`
    /// pass, which passes the key to `learn` before anything is delivered. Written under `lock`.
    @usableFromInline let awaitingKey = Atomic<Bool>(false)
    // Guarded by `lock`, so the run-time exclusivity checks Swift would add are off.
    @exclusivity(unchecked) private var table: EntryTable
    @exclusivity(unchecked) private var retired: [EntryTable] = []
    @exclusivity(unchecked) private var isEnded = false

    /// The stamp of the latest set begun.
    var stamp: Int { gate.stamp }

    init() {
        table = EntryTable.allocate(capacity: 4)
        published = Atomic(table.raw)
    }

    deinit {
        // Nobody reads any more: the instance that owned the list is gone.
        table.destroy()
        for old in retired { old.destroy() }
    }

    // MARK: Reading (a set)

    /// Begins a set's read: the published table and the set's stamp. End it with `endRead()`; the
    /// table's entries stay alive, and in place, until then.
    @inlinable
    func beginRead() -> (table: EntryTable, stamp: Int) {
        let (stamp, mustWait) = gate.beginRead()
        if mustWait { waitForWriter() }
        return (EntryTable(raw: published.load(ordering: .acquiring)), stamp)
    }

    /// Out of line, and a method of the list rather than of its gate: a set then keeps only the
    /// list's address in a register, not the gate's as well. A change in place holds the lock until
    /// it ends, so taking the lock waits for it, blocking; once the set counts as a reader, no other
    /// change writes in place. On a watched list the set enters its extent here.
    @usableFromInline @inline(never)
    func waitForWriter() {
        if gate.isWriting { lock.withLock {} }
        if gate.isWatched { SetExtent.enter(ObjectIdentifier(self)) }
    }

    /// Ends a read begun by `beginRead()`. The last reader to leave frees the tables retired while
    /// it read; on a watched list the set leaves its extent.
    @inlinable
    func endRead() {
        if gate.endRead() { afterRead() }
    }

    @usableFromInline @inline(never)
    func afterRead() {
        if gate.hasRetiredTables { reclaimRetired() }
        if gate.isWatched { SetExtent.leave(ObjectIdentifier(self)) }
    }

    /// Counts this list's sets in their thread's `SetExtent` from now on.
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

    /// Tables a change retired, to be destroyed after the lock: usually none, `nil` (which, unlike an
    /// empty array, costs no release).
    typealias FreedTables = [EntryTable]?

    /// Destroys the tables a change retired; never under the lock (see `EntryTable.destroy`).
    /// Inlined: usually there are none, and that takes one test.
    @inline(__always)
    private static func destroy(_ freed: FreedTables) {
        guard let freed else { return }
        destroyAll(freed)
    }

    private static func destroyAll(_ freed: [EntryTable]) {
        for old in freed { old.destroy() }
    }

    /// Under `lock`, with no reader: the retired tables, to be destroyed after the lock.
    private func takeRetired() -> FreedTables {
        guard !retired.isEmpty else { return nil }
        var taken: [EntryTable] = []
        swap(&taken, &retired)
        gate.clearRetired()
        return taken
    }

    // MARK: Changing (registration, cancellation, the end)

    /// Runs `body` on the list's table, under `lock`: in place when no set is reading, else on a copy
    /// that then replaces it. Returns what `body` returns and the tables to destroy after the lock.
    /// Always inlined: as a call, its closure's captures (the entry, the list) would be retained and
    /// released around it.
    @inline(__always)
    private func change<Result>(minimumCapacity: Int, _ body: (inout EntryTable) -> Result) -> (Result, FreedTables) {
        if gate.tryBeginWriting() {
            // Nobody reads, and a set that begins now waits: change the table in place.
            let freed = takeRetired()
            if table.capacity < minimumCapacity {
                table = table.grown(to: Swift.max(minimumCapacity, table.capacity * 2))
            }
            let result = body(&table)
            Self.shrinkIfEmpty(&table)
            published.store(table.raw, ordering: .relaxed)
            gate.endWriting()
            return (result, freed)
        }
        // Sets are reading the table: change a copy, publish it, and retire the old one for the last
        // of them to free.
        var copy = table.copy(capacity: Swift.max(minimumCapacity, table.capacity))
        let result = body(&copy)
        Self.shrinkIfEmpty(&copy)
        retired.append(table)
        table = copy
        published.store(table.raw, ordering: .releasing)
        // Every reader left before the flag was set, so none will free them: this change does.
        let freed = gate.markRetired() ? takeRetired() : nil
        return (result, freed)
    }

    /// A large table left empty (a million observations, all cancelled) is freed; a small one is kept
    /// for the next observation. `table` is the list's own, unpublished or not read.
    private static func shrinkIfEmpty(_ table: inout EntryTable) {
        guard table.count == 0, table.capacity > 16 else { return }
        // With no entries, what is left counted is the list's own wait for its key.
        let willChangeCount = table.willChangeCount
        table.deallocate()
        table = EntryTable.allocate(capacity: 4)
        table.willChangeCount = willChangeCount
    }

    /// Adds `entry` at the end; `false` (and nothing added) if the instance is being deallocated.
    /// `awaitingKey`: the entry needs the property's key before its first notification (`learn`).
    func add(_ entry: ListEntry, awaitingKey awaits: Bool = false) -> Bool {
        let (added, freed): (Bool, FreedTables) = lock.withLock {
            if isEnded { return (false, nil) }
            return change(minimumCapacity: table.count + 1) { table in
                entry.index = table.count
                table.append(entry)
                if entry.countsForWillChange { table.willChangeCount += 1 }
                if awaits, !awaitingKey.load(ordering: .relaxed) {
                    awaitingKey.store(true, ordering: .relaxed)
                    table.willChangeCount += 1
                }
                // Written under the lock only: no read-modify-write needed.
                liveCount.store(liveCount.load(ordering: .relaxed) + 1, ordering: .relaxed)
                return true
            }
        }
        Self.destroy(freed)
        return added
    }

    /// Removes `entry` if it is still registered; safe to call any number of times.
    func remove(_ entry: ListEntry) {
        let (removed, freed): (Unmanaged<ListEntry>?, FreedTables) = lock.withLock {
            guard isRegistered(entry) else { return (nil, nil) }
            let index = entry.index
            return change(minimumCapacity: 0) { table in
                // Moved out, not copied: released after the lock.
                let removed = table.take(at: index)
                entry.index = -1
                let live = liveCount.load(ordering: .relaxed) - 1
                liveCount.store(live, ordering: .relaxed)
                if entry.countsForWillChange { table.willChangeCount -= 1 }
                if index == table.count - 1 {
                    // Cancelling the newest observation (the observe/cancel pattern) leaves no hole.
                    table.trimTrailingHoles()
                } else if table.count >= 16 && live * 2 < table.count {
                    table.compact()
                }
                return removed
            }
        }
        Self.destroy(freed)
        // Possibly the last reference to the entry and to what its handler captured: after the lock.
        removed?.release()
    }

    /// Whether an entry waits for the property's key: a set's `willChange` pass then passes it to
    /// `learn`. Read without the lock (`learn` looks again under it).
    @inlinable
    var awaitsPropertyKey: Bool { awaitingKey.load(ordering: .relaxed) }

    /// Hands the property's key to every entry (they keep the first they are given) and stops
    /// awaiting it. Under the lock, so that an entry added meanwhile either is handed it or keeps
    /// the list awaiting; the entries' `learn` only stores it.
    @usableFromInline @inline(never)
    func learn(_ key: ObservedPropertyKey) {
        let freed: FreedTables = lock.withLock {
            guard awaitingKey.load(ordering: .relaxed), !isEnded else { return nil }
            awaitingKey.store(false, ordering: .relaxed)
            for index in 0..<table.count {
                table[index]?._withUnsafeGuaranteedRef { $0.learn(key) }
            }
            return change(minimumCapacity: 0) { table in table.willChangeCount -= 1 }.1
        }
        Self.destroy(freed)
    }

    /// Counts `entry`, which wants `willChange`, in the table's `willChangeCount` or not: a set that
    /// begins afterwards runs the `willChange` pass if any entry is counted.
    func setCountsForWillChange(_ entry: ListEntry, _ counts: Bool) {
        let freed: FreedTables = lock.withLock {
            guard entry.countsForWillChange != counts, isRegistered(entry) else { return nil }
            return change(minimumCapacity: 0) { table in
                table.willChangeCount += counts ? 1 : -1
                entry.countsForWillChange = counts
            }.1
        }
        Self.destroy(freed)
    }

    /// Under `lock`: whether `entry` is in this list now (its index says where, if anywhere).
    private func isRegistered(_ entry: ListEntry) -> Bool {
        let index = entry.index
        return !isEnded && index >= 0 && index < table.count
            && table[index]?.toOpaque() == Unmanaged.passUnretained(entry).toOpaque()
    }

    /// Ends the list: called once, by the slot, when the observed instance is deallocated.
    func end() {
        let (ended, freed): ([Unmanaged<ListEntry>], FreedTables) = lock.withLock {
            isEnded = true
            return change(minimumCapacity: 0) { table in
                liveCount.store(0, ordering: .relaxed)
                return table.takeAll()
            }
        }
        Self.destroy(freed)
        for entry in ended {
            entry.takeRetainedValue().listEnded()
        }
    }

    /// The entries now in the list, each retained: for a change announced by hand, whose
    /// `didChangeValue` may never come (a snapshot would keep the list read until it did).
    func retainedEntries() -> RetainedEntries? {
        let entries = lock.withLock { table.retainedEntries() }
        return entries.isEmpty ? nil : RetainedEntries(entries)
    }

    /// The registered entries of class `Entry` (or a subclass), in registration order.
    func entries<Entry: ListEntry>(of _: Entry.Type) -> [Entry] {
        lock.withLock {
            (0..<table.count).compactMap { index in
                table[index].flatMap { $0.takeUnretainedValue() as? Entry }
            }
        }
    }
}
