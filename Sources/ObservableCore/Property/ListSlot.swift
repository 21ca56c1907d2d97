import Synchronization

/// Where an instance keeps one property's observer list: one atomic reference, `nil` until the
/// property is first observed on that instance, then the list, which the slot owns. When the
/// instance is deallocated the slot's `deinit` ends the list, which ends every observation
/// registered in it: that is the dealloc-time cleanup. `ObservationSlot`, the field the macro
/// declares, is this and nothing else.
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

    /// The slot at `offset` bytes into `object`: how registration, string key paths and stored paths
    /// reach a property's list without its accessors. Assumes `offset` is a slot's offset in
    /// `object`'s class, as a getter reported it or the class's list found it (both `offset(in:)`),
    /// and that the caller keeps `object` alive while it uses the pointer. Proved by `SlotOffsetTests`
    /// (the two agree on every shape of class), `KeyPathInterningTests`, `StringKeyPathTests` and
    /// `StoredPathTests`.
    static func at(_ offset: Int, in object: AnyObject) -> UnsafePointer<ListSlot> {
        UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
            .advanced(by: offset).assumingMemoryBound(to: ListSlot.self)
    }

    /// This slot's offset in `object`, the instance whose field it is, which the caller keeps alive:
    /// how the runtime learns where a property's slot is from its getter's `access` call. Assumes a
    /// borrowed slot is its field, at the field's address: it cannot be copied, and holds an atomic,
    /// which has one address. Proved by `SlotOffsetTests`; a learnt offset is used only after the
    /// slot there is seen to hold the list the getter reported.
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
