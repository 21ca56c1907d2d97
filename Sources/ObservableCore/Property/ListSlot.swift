import Synchronization

/// Where an instance keeps one property's observer list: `nil` until first observed, then the list,
/// which the slot owns and ends with the instance.
@usableFromInline
struct ListSlot: ~Copyable, @unchecked Sendable {
    @usableFromInline
    let list: Atomic<Unmanaged<ObserverList>?>

    @usableFromInline
    init() {
        list = Atomic(nil)
    }

    deinit {
        if let list = list.load(ordering: .acquiring) {
            list.takeRetainedValue().end()
        }
    }

    /// The slot at `offset` bytes into `object`. Assumes `offset` is one `offset(in:)` found for the
    /// class and the caller keeps `object` alive. Proved by `SlotOffsetTests`, `StringKeyPathTests`.
    static func at(_ offset: Int, in object: AnyObject) -> UnsafePointer<ListSlot> {
        UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
            .advanced(by: offset).assumingMemoryBound(to: ListSlot.self)
    }

    /// This slot's offset in `object`. Assumes a borrowed slot is its field (noncopyable, holding an
    /// atomic, so one address). Proved by `SlotOffsetTests`.
    func offset(in object: AnyObject) -> Int {
        UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()).distance(
            to: withUnsafePointer(to: self) { UnsafeRawPointer($0) })
    }

    /// Whether `list` is this slot's list.
    func holds(_ list: ObserverList) -> Bool {
        self.list.load(ordering: .acquiring)?.toOpaque() == Unmanaged.passUnretained(list).toOpaque()
    }

    /// The list, created on first use. Every call for one slot comes from the accessors of one
    /// property, so the values its entries receive are always of that property's type.
    func observers() -> ObserverList {
        unretainedObservers().takeUnretainedValue()
    }

    /// The list if the property has been observed on this instance, without creating one.
    func existingObservers() -> ObserverList? {
        list.load(ordering: .acquiring)?.takeUnretainedValue()
    }

    /// The list, created on first use, unretained: the slot owns it while its instance lives.
    func unretainedObservers() -> Unmanaged<ObserverList> {
        if let existing = list.load(ordering: .acquiring) { return existing }
        let created = Unmanaged.passRetained(ObserverList())
        let (stored, current) = list.compareExchange(
            expected: nil, desired: created, successOrdering: .acquiringAndReleasing, failureOrdering: .acquiring)
        if stored { return created }
        created.release()
        return current.unsafelyUnwrapped
    }
}
