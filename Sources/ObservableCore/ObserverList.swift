import Synchronization
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// How a list entry is told about a change: the entry itself, the observed object, the old value, the
/// new value or `nil` for the notification before the store (`.prior`), what an in-place collection
/// mutation did, and the set's stamp (see `ObserverList.stamp`). The values are passed by address
/// and are of the property's type.
///
/// A capture-free function stored in the entry rather than a virtual method: a set reaches each
/// observer with one indirect call, and a direct observation's function is built and specialised by
/// the `@inlinable` caller of `observe`, so a notification never looks up generic metadata.
@usableFromInline
typealias EntryNotification = (ListEntry, AnyObject, UnsafeRawPointer, UnsafeRawPointer?, CollectionMutation?, Int) -> Void

/// One entry of a property's observer list: a direct observation, or one link of a path observation.
///
/// Not generic, on purpose: a set reaches its observers through `notify` with the old and new values
/// passed by address. Anything typed happens in code specialised in the user's module (the function a
/// direct observation carries, the `@inlinable` slot methods), so a notification never looks up
/// generic metadata at run time.
///
/// Its `state` (from `ObservationCore`) is `0` once the entry has ended (a direct observation
/// cancelled, or its object deallocated). A set recognises a `DefaultOptionsObservation`, whose
/// handler it calls itself, by its class (see `EntryRun.deliverDidChange`).
///
/// Layout: the small fields fill the word of `ObservationCore.state`, so that a default-options
/// observation is 72 bytes (a malloc chunk of 80): header 16, `state`, `options`,
/// `countsForWillChange` and the index 8,
/// `notify` 16, key path 8, list 8, handler 16.
@usableFromInline
class ListEntry: ObservationCore, @unchecked Sendable {
    /// A direct observation's options; a path link's are `.prior` when it wants `willChange`, else
    /// none.
    @usableFromInline
    final let options: ObservationOptions
    /// Whether the entry is counted in its table's `willChangeCount`, which decides whether a set
    /// runs the `willChange` pass at all: from the start for one that wants `willChange`; a proven
    /// leaf's path link only while its path has a change in flight (see `PathLink`). Guarded by the
    /// list's lock. (Declared here, before the index, so that it fits in the same word.)
    final var countsForWillChange: Bool
    private final var storedIndex: Int32 = -1
    /// Called for each change the entry hears about, with the entry itself.
    @usableFromInline
    final let notify: EntryNotification

    /// Position in the owning list's table (`-1` when in none); guarded by that list's lock.
    final var index: Int {
        get { Int(storedIndex) }
        set { storedIndex = Int32(newValue) }   // a table holds fewer than 2³¹ entries
    }

    /// Whether the entry wants `willChange` (before the store) as well as `didChange`.
    @inlinable
    final var wantsWillChange: Bool { options.contains(.prior) }

    init(options: ObservationOptions, countsForWillChange: Bool? = nil, notify: @escaping EntryNotification) {
        self.options = options
        self.countsForWillChange = countsForWillChange ?? options.contains(.prior)
        self.notify = notify
        super.init()
    }

    /// The observed instance was deallocated; the list has already dropped this entry.
    func listEnded() {}
}

/// A run of list entries a change is delivered to, borrowed: whoever hands it out keeps the entries
/// alive while it is used. `nil` slots are holes left by cancelled observations.
@usableFromInline
struct EntryRun {
    @usableFromInline let slots: UnsafePointer<Unmanaged<ListEntry>?>
    @usableFromInline let count: Int
    /// The stamp of the set delivered (see `ObserverList.stamp`).
    @usableFromInline let stamp: Int

    @inlinable
    init(slots: UnsafePointer<Unmanaged<ListEntry>?>, count: Int, stamp: Int) {
        self.slots = slots
        self.count = count
        self.stamp = stamp
    }

    @usableFromInline
    func deliverWillChange(_ object: AnyObject, _ oldValue: UnsafeRawPointer) {
        for index in 0 ..< count {
            slots[index]?._withUnsafeGuaranteedRef { entry in
                if entry.wantsWillChange { entry.notify(entry, object, oldValue, nil, nil, stamp) }
            }
        }
    }

    /// `deliverWillChange` for a value of the property's type. Specialised in the caller's module.
    @inlinable
    func deliverWillChange<Value>(_ object: AnyObject, oldValue: Value) {
        withUnsafePointer(to: oldValue) { deliverWillChange(object, UnsafeRawPointer($0)) }
    }

    /// Delivers the change after the store. Specialised in the caller's module and inlined in the
    /// setter. Calls each entry without retaining it: the list's reader count keeps the entries
    /// alive, and a retain and release would be two atomic operations per observer.
    ///
    /// Direct observations made through `Object` itself with the default options
    /// (`DefaultOptionsObservation<Object, Value>`, recognised by their class) all receive the same
    /// change: it is built once, at the first of them, and their handlers are called from here with
    /// it, so a set makes one indirect call per such observer instead of two and builds one change
    /// instead of one each. Its key path is set to each observation's own before the call (they are
    /// all the one interned `\Object.property` in practice, but the change never depends on that).
    /// A local, so the handlers borrow it where it is: a change reached through a pointer is
    /// copied for every call. Every other entry (path links, other options, observations made
    /// through a subclass type) gets its `notify` call, in registration order with the others.
    @inlinable
    func deliverDidChange<Object: AnyObject, Value>(
        _ object: Object, oldValue: Value, newValue: Value, _ mutation: CollectionMutation?
    ) {
        withUnsafePointer(to: oldValue) { old in
            withUnsafePointer(to: newValue) { new in
                let old = UnsafeRawPointer(old), new = UnsafeRawPointer(new)
                let sharing = ObjectIdentifier(DefaultOptionsObservation<Object, Value>.self)
                // A live `DefaultOptionsObservation<Object, Value>`.
                func shares(_ entry: ListEntry) -> Bool {
                    ObjectIdentifier(type(of: entry)) == sharing && entry.state.load(ordering: .acquiring) != 0
                }
                var index = 0
                // Up to the first entry that shares the change.
                while index < count {
                    if let entry = slots[index] {
                        if entry._withUnsafeGuaranteedRef(shares) { break }
                        entry._withUnsafeGuaranteedRef { $0.notify($0, object, old, new, mutation, stamp) }
                    }
                    index += 1
                }
                guard index < count else { return }
                // The first one, just tested: built with its key path and called without a second test.
                var change = slots[index].unsafelyUnwrapped._withUnsafeGuaranteedRef { entry in
                    let observation = unsafeDowncast(entry, to: DefaultOptionsObservation<Object, Value>.self)
                    let change = ObservedChange(
                        kind: mutation?.kind ?? .setting, oldValue: oldValue, newValue: newValue, isPrior: false,
                        keyPath: observation.keyPath, mutation: mutation)
                    observation.handler(object, change)
                    return change
                }
                // The rest, walked by address: kept in registers across the calls.
                let end = slots + count
                var slot = slots + index + 1
                while slot < end {
                    slot.pointee?._withUnsafeGuaranteedRef { entry in
                        if shares(entry) {
                            // Live, and its class says that the handler takes an `Object` and a change of
                            // `Value`. (Ended ones go to `notify`, which does nothing for them.)
                            let observation = unsafeDowncast(entry, to: DefaultOptionsObservation<Object, Value>.self)
                            change._keyPath = observation.keyPath
                            observation.handler(object, change)
                        } else {
                            entry.notify(entry, object, old, new, mutation, stamp)
                        }
                    }
                    slot += 1
                }
            }
        }
    }
}

/// Who is notified of one change: the entries registered when the set began, in order.
///
/// Taking a snapshot makes the set a reader of the list (see `ObserverList`): the entries stay
/// alive, and in place, until ``deliverDidChange(_:oldValue:newValue:_:)`` ends it. No retain, no
/// lock: one atomic increment to begin and one decrement to end.
///
/// Used by the `@Observed` macro; do not use directly.
@_documentation(visibility: private)
public struct _$Snapshot {
    @usableFromInline let list: Unmanaged<ObserverList>
    @usableFromInline let run: EntryRun
    @usableFromInline let notifiesWillChange: Bool

    @inlinable
    init(list: Unmanaged<ObserverList>, run: EntryRun, notifiesWillChange: Bool) {
        self.list = list
        self.run = run
        self.notifiesWillChange = notifiesWillChange
    }

    /// Delivers `.prior` to the entries that asked for it. Specialised in the caller's module.
    @inlinable
    func deliverWillChange<Value>(_ object: AnyObject, oldValue: Value) {
        run.deliverWillChange(object, oldValue: oldValue)
    }

    /// Delivers the change after the store, then ends the snapshot: call it exactly once.
    /// Specialised in the caller's module.
    @inlinable
    func deliverDidChange<Object: AnyObject, Value>(
        _ object: Object, oldValue: Value, newValue: Value, _ mutation: CollectionMutation?
    ) {
        run.deliverDidChange(object, oldValue: oldValue, newValue: newValue, mutation)
        list._withUnsafeGuaranteedRef { $0.endRead() }
    }
}

/// What a set captures before the store: who is notified after it, and the old value.
///
/// Used by the `@Observed` macro; do not use directly.
@_documentation(visibility: private)
public struct _$PendingChange<Value> {
    @usableFromInline let snapshot: _$Snapshot
    @usableFromInline let oldValue: Value

    @inlinable
    init(snapshot: _$Snapshot, oldValue: Value) {
        self.snapshot = snapshot
        self.oldValue = oldValue
    }
}

/// The entries of one list in one allocation: a header, then `capacity` slots, each `nil` or holding
/// one strong reference to its entry. Not a class: it is handed between threads as a bare pointer,
/// its lifetime managed by `ObserverList`.
@usableFromInline
struct EntryTable {
    @usableFromInline
    struct Header {
        @usableFromInline var count: Int
        @usableFromInline var capacity: Int
        @usableFromInline var willChangeCount: Int
    }

    @usableFromInline let raw: UnsafeMutableRawPointer
    @inlinable static var slotsOffset: Int { MemoryLayout<Header>.stride }

    @inlinable init(raw: UnsafeMutableRawPointer) { self.raw = raw }

    static func allocate(capacity: Int) -> EntryTable {
        let raw = UnsafeMutableRawPointer.allocate(
            byteCount: slotsOffset + capacity * MemoryLayout<Unmanaged<ListEntry>?>.stride,
            alignment: MemoryLayout<Header>.alignment)
        raw.initializeMemory(as: Header.self, to: Header(count: 0, capacity: capacity, willChangeCount: 0))
        return EntryTable(raw: raw)
    }

    @inlinable var header: UnsafeMutablePointer<Header> { raw.assumingMemoryBound(to: Header.self) }
    @inlinable var slots: UnsafeMutablePointer<Unmanaged<ListEntry>?> {
        (raw + Self.slotsOffset).assumingMemoryBound(to: Unmanaged<ListEntry>?.self)
    }
    /// Slots in use, holes included.
    @inlinable var count: Int { get { header.pointee.count } nonmutating set { header.pointee.count = newValue } }
    var capacity: Int { header.pointee.capacity }
    @inlinable var willChangeCount: Int { get { header.pointee.willChangeCount } nonmutating set { header.pointee.willChangeCount = newValue } }
    /// The entries, for a set with `stamp`.
    @inlinable func run(stamp: Int) -> EntryRun { EntryRun(slots: UnsafePointer(slots), count: count, stamp: stamp) }

    /// A new table with the same entries at the same places, each retained again.
    func copy(capacity: Int) -> EntryTable {
        let copy = EntryTable.allocate(capacity: capacity)
        for index in 0 ..< count {
            (copy.slots + index).initialize(to: slots[index]?.retain())
        }
        copy.count = count
        copy.willChangeCount = willChangeCount
        return copy
    }

    /// Frees the memory, and with it the table's references to its entries: never under a lock
    /// (a last release runs an entry's `deinit`, which runs user code).
    func destroy() {
        for index in 0 ..< count { slots[index]?.release() }
        raw.deallocate()
    }

    /// Frees the memory only: its references have moved elsewhere.
    func deallocate() {
        raw.deallocate()
    }
}

/// The observations of one property of one instance, in registration order. Owned by the
/// instance's slot; ended (with every observation in it) when the instance is deallocated.
///
/// Registration appends; cancellation leaves a `nil` hole found through the entry's stored index and
/// compacts when holes outnumber entries, so adding and removing are amortised O(1) and a million
/// observations on one property stay linear.
///
/// A set reads the list without its lock and without reference counting: it registers as a reader
/// (`readers` counts the sets in progress), reads the published table, calls out, and leaves. Changes
/// (registration, cancellation, the end) take the lock, then either change the table in place, when
/// no set is reading (they flag `writing`, and a set that begins meanwhile waits for them: a few
/// instructions, never user code), or copy it, publish the copy and retire the old table, which the
/// last reader to leave (or the next change) frees. The lock never covers user code.
@usableFromInline
final class ObserverList: @unchecked Sendable {
    /// Serialises changes to the list; a set never takes it.
    private let lock = SpinLock()
    /// In its low 32 bits the count of sets reading the published table; then the `hasRetired` and
    /// `writing` flags; above them a count of the sets begun, wrapping: the stamp of a set, by which
    /// a path's leaf link sees that another set of the property began after its own (`PathLink`).
    /// A set adds to both counts with one atomic add.
    @usableFromInline let state = Atomic<Int>(0)
    /// The table sets read. Replaced only under `lock`.
    @usableFromInline let published: Atomic<UnsafeMutableRawPointer>
    /// Observations in the list (entries, not holes): a set with none returns at once.
    @usableFromInline let liveCount = Atomic<Int>(0)
    // Guarded by `lock`, so the run-time exclusivity checks Swift would add are off.
    @exclusivity(unchecked) private var table: EntryTable
    @exclusivity(unchecked) private var retired: [EntryTable] = []
    @exclusivity(unchecked) private var isEnded = false

    @inlinable static var readerMask: Int { (1 << 32) - 1 }
    @inlinable static var hasRetired: Int { 1 << 32 }
    @inlinable static var writing: Int { 1 << 33 }
    /// One set begun, in the bits above the flags (which a carry out of the top leaves alone).
    @inlinable static var setBegun: Int { 1 << 34 }
    @inlinable static var stampMask: Int { ~(setBegun - 1) }
    /// Not a set's stamp (a stamp has no bits below `setBegun`): a change announced by hand, whose
    /// values are read when it is delivered.
    static var unstamped: Int { 1 }

    /// The stamp of the latest set begun.
    var stamp: Int { state.load(ordering: .relaxed) & Self.stampMask }

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

    /// The entries a set notifies, or `nil` when there are none. A non-`nil` snapshot must be ended,
    /// by `_$Snapshot.deliverDidChange`.
    @inlinable
    func snapshot() -> _$Snapshot? {
        if liveCount.load(ordering: .relaxed) == 0 { return nil }
        let state = self.state.wrappingAdd(1 &+ Self.setBegun, ordering: .acquiring).newValue
        // A change in place is under way: it takes a few instructions and calls nothing.
        if state & Self.writing != 0 { waitForWriter() }
        let table = EntryTable(raw: published.load(ordering: .acquiring))
        return _$Snapshot(list: Unmanaged.passUnretained(self), run: table.run(stamp: state & Self.stampMask),
                          notifiesWillChange: table.willChangeCount > 0)
    }

    @usableFromInline @inline(never)
    func waitForWriter() {
        var spins = 0
        while true {
            let state = self.state.load(ordering: .acquiring)
            if state & Self.writing == 0 { return }
            spins += 1
            if spins >= 64 { sched_yield() }
        }
    }

    /// Ends a read begun by `snapshot()`. The last reader to leave frees the tables retired while
    /// it read.
    @inlinable
    func endRead() {
        let state = self.state.wrappingSubtract(1, ordering: .releasing).newValue
        if state & Self.readerMask == 0 && state & Self.hasRetired != 0 {
            reclaimRetired()
        }
    }

    @usableFromInline @inline(never)
    func reclaimRetired() {
        let freed: FreedTables = lock.withLock {
            // A reader that began since then reads the published table, never a retired one.
            guard state.load(ordering: .acquiring) & Self.readerMask == 0 else { return nil }
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
        state.bitwiseAnd(~Self.hasRetired, ordering: .relaxed)
        return taken
    }

    // MARK: Changing (registration, cancellation, the end)

    /// Runs `body` on the list's table, under `lock`: in place when no set is reading, else on a copy
    /// that then replaces it. Returns what `body` returns and the tables to destroy after the lock.
    /// Always inlined: as a call, its closure's captures (the entry, the list) were retained and
    /// released around it.
    @inline(__always)
    private func change<Result>(minimumCapacity: Int, _ body: (inout EntryTable) -> Result) -> (Result, FreedTables) {
        var state = self.state.load(ordering: .relaxed)
        while state & Self.readerMask == 0 {
            let (exchanged, current) = self.state.compareExchange(
                expected: state, desired: state | Self.writing, ordering: .acquiring)
            if exchanged {
                // Nobody reads, and a set that begins now waits: change the table in place.
                let freed = takeRetired()
                if table.capacity < minimumCapacity {
                    let grown = EntryTable.allocate(capacity: Swift.max(minimumCapacity, table.capacity * 2))
                    grown.slots.moveInitialize(from: table.slots, count: table.count)
                    grown.count = table.count
                    grown.willChangeCount = table.willChangeCount
                    table.deallocate()
                    table = grown
                }
                let result = body(&table)
                Self.shrinkIfEmpty(&table)
                published.store(table.raw, ordering: .relaxed)
                self.state.bitwiseAnd(~Self.writing, ordering: .releasing)
                return (result, freed)
            }
            state = current
        }
        // Sets are reading the table: change a copy, publish it, and retire the old one for the last
        // of them to free.
        var copy = table.copy(capacity: Swift.max(minimumCapacity, table.capacity))
        let result = body(&copy)
        Self.shrinkIfEmpty(&copy)
        retired.append(table)
        table = copy
        published.store(table.raw, ordering: .releasing)
        let before = self.state.bitwiseOr(Self.hasRetired, ordering: .acquiringAndReleasing).oldValue
        // Every reader left before the flag was set, so none will free them: this change does.
        let freed = before & Self.readerMask == 0 ? takeRetired() : nil
        return (result, freed)
    }

    /// A large table left empty (a million observations, all cancelled) is freed; a small one is kept
    /// for the next observation. `table` is the list's own, unpublished or not read.
    private static func shrinkIfEmpty(_ table: inout EntryTable) {
        guard table.count == 0, table.capacity > 16 else { return }
        table.deallocate()
        table = EntryTable.allocate(capacity: 4)
    }

    /// Adds `entry` at the end; `false` (and nothing added) if the instance is being deallocated.
    func add(_ entry: ListEntry) -> Bool {
        let (added, freed): (Bool, FreedTables) = lock.withLock {
            if isEnded { return (false, nil) }
            return change(minimumCapacity: table.count + 1) { table in
                entry.index = table.count
                (table.slots + table.count).initialize(to: Unmanaged.passRetained(entry))
                table.count += 1
                if entry.countsForWillChange { table.willChangeCount += 1 }
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
            let index = entry.index
            guard !isEnded, index >= 0, index < table.count,
                  table.slots[index]?.toOpaque() == Unmanaged.passUnretained(entry).toOpaque() else { return (nil, nil) }
            return change(minimumCapacity: 0) { table in
                // Moved out, not copied: released after the lock.
                let removed = table.slots[index]
                table.slots[index] = nil
                entry.index = -1
                let live = liveCount.load(ordering: .relaxed) - 1
                liveCount.store(live, ordering: .relaxed)
                if entry.countsForWillChange { table.willChangeCount -= 1 }
                if index == table.count - 1 {
                    // Cancelling the newest observation (the observe/cancel pattern) leaves no hole.
                    while table.count > 0, table.slots[table.count - 1] == nil { table.count -= 1 }
                } else if table.count >= 16 && live * 2 < table.count {
                    Self.compact(table)
                }
                return removed
            }
        }
        Self.destroy(freed)
        // Possibly the last reference to the entry and to what its handler captured: after the lock.
        removed?.release()
    }

    /// Counts `entry`, which wants `willChange`, in the table's `willChangeCount` or not: a set that
    /// begins afterwards runs the `willChange` pass if any entry is counted.
    func setCountsForWillChange(_ entry: ListEntry, _ counts: Bool) {
        let freed: FreedTables = lock.withLock {
            let index = entry.index
            guard !isEnded, entry.countsForWillChange != counts, index >= 0, index < table.count,
                  table.slots[index]?.toOpaque() == Unmanaged.passUnretained(entry).toOpaque() else { return nil }
            return change(minimumCapacity: 0) { table in
                table.willChangeCount += counts ? 1 : -1
                entry.countsForWillChange = counts
            }.1
        }
        Self.destroy(freed)
    }

    /// Moves the entries over the holes, renumbering them.
    private static func compact(_ table: EntryTable) {
        var used = 0
        for index in 0 ..< table.count {
            guard let entry = table.slots[index] else { continue }
            entry._withUnsafeGuaranteedRef { $0.index = used }
            table.slots[used] = entry
            used += 1
        }
        table.count = used
    }

    /// Ends the list: called once, by the slot, when the observed instance is deallocated.
    func end() {
        let (ended, freed): ([Unmanaged<ListEntry>], FreedTables) = lock.withLock {
            isEnded = true
            return change(minimumCapacity: 0) { table in
                var taken: [Unmanaged<ListEntry>] = []
                for index in 0 ..< table.count {
                    if let entry = table.slots[index] { taken.append(entry) }
                }
                table.count = 0
                table.willChangeCount = 0
                liveCount.store(0, ordering: .relaxed)
                return taken
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
        let entries: ContiguousArray<Unmanaged<ListEntry>?> = lock.withLock {
            var entries = ContiguousArray<Unmanaged<ListEntry>?>()
            for index in 0 ..< table.count {
                if let entry = table.slots[index] { entries.append(entry.retain()) }
            }
            return entries
        }
        return entries.isEmpty ? nil : RetainedEntries(entries)
    }

    /// The path observations linked into this list (for manual notification of computed properties).
    func pathDependents() -> [any PathDependent] {
        let links: [PathLink] = lock.withLock {
            (0 ..< table.count).compactMap { index in
                table.slots[index].flatMap { $0.takeUnretainedValue() as? PathLink }
            }
        }
        return links.map(\.dependent)
    }

    /// Registers `dependent` to hear about every change of this property; `nil` if the list has ended.
    func attach(_ dependent: PathObservationCore & PathDependent, leaf: LeafConversion? = nil) -> (any DependencyLink)? {
        let link = PathLink(list: self, dependent: dependent, leaf: leaf)
        return add(link) ? link : nil
    }
}

/// Entries copied out of a list and kept alive: who a change announced by hand is delivered to.
final class RetainedEntries {
    private let entries: ContiguousArray<Unmanaged<ListEntry>?>

    init(_ entries: ContiguousArray<Unmanaged<ListEntry>?>) {
        self.entries = entries
    }

    deinit {
        for entry in entries { entry?.release() }
    }

    var notifiesWillChange: Bool {
        entries.contains { $0?.takeUnretainedValue().wantsWillChange == true }
    }

    /// Calls `body` with the entries as a run (never empty: see `ObserverList.retainedEntries`).
    func withRun<Result>(_ body: (EntryRun) -> Result) -> Result {
        entries.withUnsafeBufferPointer { buffer in
            body(EntryRun(slots: buffer.baseAddress!, count: buffer.count, stamp: ObserverList.unstamped))
        }
    }
}
