import Synchronization

/// A lock-free direct-mapped cache of unretained references. Assumes every object stored outlives
/// the slots (`KeyPathResolutions.made`). Proved by `UnretainedSlotsTests` (TSan, ASan).
struct UnretainedSlots<Object: AnyObject>: ~Copyable, @unchecked Sendable {
    private let slots: UnsafeMutablePointer<Atomic<Unmanaged<Object>?>>
    /// How many slots there are: a power of two, so an index is a hash masked by `count - 1`.
    let count: Int

    init(count: Int) {
        precondition(count > 0 && count & (count - 1) == 0, "UnretainedSlots: count must be a power of two")
        self.count = count
        slots = .allocate(capacity: count)
        for index in 0..<count { (slots + index).initialize(to: Atomic(nil)) }
    }

    deinit {
        slots.deinitialize(count: count)
        slots.deallocate()
    }

    /// Puts `object` in the slot `index`, in place of what was there.
    func store(_ object: Object, at index: Int) {
        slots[index].store(Unmanaged.passUnretained(object), ordering: .releasing)
    }

    /// Calls `body` with the object in the slot `index`, without retaining it; `nil` if it is empty.
    func withObject<Result>(at index: Int, _ body: (Object) -> Result) -> Result? {
        slots[index].load(ordering: .acquiring)?._withUnsafeGuaranteedRef(body)
    }
}
