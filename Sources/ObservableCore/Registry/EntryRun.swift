/// A run of list entries a change is delivered to, borrowed: whoever hands it out keeps the entries
/// alive, and in place, while it is used (a set's read of its list, see `ReadGate`; a manual change's
/// `RetainedEntries`). `nil` slots are holes left by cancelled observations.
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
