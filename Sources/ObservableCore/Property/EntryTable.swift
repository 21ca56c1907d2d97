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
    @inlinable var count: Int {
        get { header.pointee.count }
        nonmutating set { header.pointee.count = newValue }
    }
    var capacity: Int { header.pointee.capacity }
    /// Entries counted as wanting `willChange` (see `ListEntry.countsForWillChange`).
    @inlinable var willChangeCount: Int {
        get { header.pointee.willChangeCount }
        nonmutating set { header.pointee.willChangeCount = newValue }
    }
    /// The entries, for a set with `stamp`.
    @inlinable func run(stamp: Int) -> EntryRun { EntryRun(slots: UnsafePointer(slots), count: count, stamp: stamp) }

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
        willChangeCount = 0
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
        copy.willChangeCount = willChangeCount
        return copy
    }

    /// A new table of `capacity` with this one's entries moved into it; this one is freed.
    func grown(to capacity: Int) -> EntryTable {
        let grown = EntryTable.allocate(capacity: capacity)
        grown.slots.moveInitialize(from: slots, count: count)
        grown.count = count
        grown.willChangeCount = willChangeCount
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
