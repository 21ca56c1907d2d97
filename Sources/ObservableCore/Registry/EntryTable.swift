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
