import Synchronization

/// A fixed number of atomic slots, each empty or holding an unretained reference, read and written
/// without a lock: a direct-mapped cache in front of a table that takes a lock (`KeyPathResolutions`).
///
/// Assumes that every object stored outlives the slots, so that a reader never reaches a freed one:
/// the owner keeps every object it ever stores (`KeyPathResolutions.made`, for the life of the
/// process). A store publishes the object's initialisation (releasing; loads are acquiring). Proved
/// by `UnretainedSlotsTests` (threads storing and reading the same slots; every object read is one
/// stored there, whole) under ThreadSanitizer and AddressSanitizer in `.ci/run`.
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
