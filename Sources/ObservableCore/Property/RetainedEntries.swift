/// Entries kept alive for a change announced by hand. Assumes one retain each, released in `deinit`.
/// Proved by `ManualNotificationTests`, `ThreadLocalTests` (LSan).
final class RetainedEntries {
    private let entries: ContiguousArray<Unmanaged<ListEntry>?>

    /// The entries now in `list`, for a change announced by hand, whose `didChangeValue` may never
    /// come; `nil` when there are none.
    init?(of list: ObserverList) {
        entries = list.retainEntries()
        if entries.isEmpty { return nil }
    }

    deinit {
        for entry in entries { entry?.release() }
    }

    var notifiesWillChange: Bool {
        entries.contains { $0?.takeUnretainedValue().wantsWillChange == true }
    }

    /// Calls `body` with the entries as a run (never empty: see `init(of:)`).
    func withRun<Result>(_ body: (ObserverList.EntryRun) -> Result) -> Result {
        entries.withUnsafeBufferPointer { buffer in
            body(ObserverList.EntryRun(slots: buffer.baseAddress!, count: buffer.count, stamp: ObserverList.unstamped))
        }
    }
}
