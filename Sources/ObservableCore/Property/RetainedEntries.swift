/// Entries copied out of a list and kept alive: who a change announced by hand is delivered to.
///
/// Assumes that each entry it is given carries one retain taken for it (`EntryTable.retainedEntries`),
/// which its `deinit` releases, and that there is at least one. Proved by `ManualNotificationTests`
/// and `ThreadLocalTests` (a change announced and never finished frees what it held) under
/// AddressSanitizer and its leak check in `.ci/run`.
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
            body(EntryRun(slots: buffer.baseAddress!, count: buffer.count, stamp: ReadGate.unstamped))
        }
    }
}
