/// Entries kept alive for a change announced by hand. Assumes one retain each, released in `deinit`.
/// Proved by `ManualNotificationTests`, `ThreadLocalTests` (LSan).
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
