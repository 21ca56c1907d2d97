import Synchronization

/// The lists one evaluation of a path read, in the order read, in a buffer that a plan keeps for its
/// observations' next re-wire, so that recording them allocates nothing once warm. Lists, not the
/// objects read: a re-wire moves links between lists, and retaining the root would go through the side
/// table its weak reference gave it.
final class AccessRecord {
    /// Written by the one reader that took the record from the spare (or made it).
    @exclusivity(unchecked) var lists: [ObserverList] = []
    /// Whether the first list is the root's. Written with `lists`.
    @exclusivity(unchecked) var firstOnRoot = false

    /// Empties the record, keeping its capacity. One by one: `removeAll(keepingCapacity:)` goes
    /// through `replaceSubrange`, dearer for the few a path reads.
    func empty() {
        while !lists.isEmpty { lists.removeLast() }
    }
}

/// One `AccessRecord` kept by a plan for reuse. Assumes a record is in the spare or with one reader,
/// never both: it is taken and given back with atomics, and the spare holds it retained until it
/// ends. Proved by `AccessRecordTests` (ThreadSanitizer, LeakSanitizer) and `NestedPathTests`.
struct SpareAccessRecord: ~Copyable, @unchecked Sendable {
    private let spare = Atomic<Unmanaged<AccessRecord>?>(nil)

    init() {}

    deinit {
        spare.load(ordering: .acquiring)?.release()
    }

    /// The spare record, empty, or a new one.
    func take() -> AccessRecord {
        spare.exchange(nil, ordering: .acquiring)?.takeRetainedValue() ?? AccessRecord()
    }

    /// Empties `record`, keeping its capacity, and keeps it unless the spare already holds one.
    func giveBack(_ record: AccessRecord) {
        record.empty()
        let kept = Unmanaged.passRetained(record)
        if !spare.compareExchange(expected: nil, desired: kept, successOrdering: .releasing, failureOrdering: .relaxed)
            .exchanged
        {
            kept.release()
        }
    }
}
