import Synchronization

/// How an entry is told of a change: the entry, the object, the lent old and new values (`nil` new
/// before the store), the collection mutation and the set's stamp. A capture-free function, not a
/// virtual method: one indirect call, specialised where `observe` was called.
@usableFromInline
typealias EntryNotification = (ListEntry, AnyObject, BorrowedValue, BorrowedValue?, CollectionMutation?, Int) -> Void

/// One entry of a property's observer list: a direct observation, or one entry of a path
/// observation (`PathLinks`). Not generic, so a notification never looks up metadata. Layout: its
/// small fields share `AnyObservation.state`'s word (`PathObservationLayoutTests`).
@usableFromInline
class ListEntry: AnyObservation, @unchecked Sendable {
    /// A direct observation's options; a path link's are `.prior` when it wants `willChange`, else
    /// none.
    @usableFromInline
    final let options: ObservationOptions
    /// Whether the entry counts in `willChangeCount`, so a set runs the `willChange` pass; a leaf link
    /// only while a change is in flight. Under the list's lock (a leaf link's: under its
    /// observation's); before the index, to share its word.
    final var countsForWillChange: Bool
    private final var storedIndex: Int32 = -1
    /// Called for each change the entry hears about, with the entry itself.
    @usableFromInline
    final let notify: EntryNotification

    /// Position in the owning list's table (`-1` when in none); guarded by that list's lock.
    final var index: Int {
        get { Int(storedIndex) }
        set { storedIndex = Int32(newValue) }  // a table holds fewer than 2³¹ entries
    }

    /// Whether the entry wants `willChange` (before the store) as well as `didChange`.
    @inlinable
    final var wantsWillChange: Bool { options.sendsPrior }

    init(options: ObservationOptions, countsForWillChange: Bool? = nil, notify: @escaping EntryNotification) {
        self.options = options
        self.countsForWillChange = countsForWillChange ?? options.sendsPrior
        self.notify = notify
        super.init()
    }

    /// The observed instance was deallocated; the list has already dropped this entry.
    func listEnded() {}

    /// The property's key, for an entry that waits for it (see `ObserverList.learn`); under the
    /// list's lock, so it only stores it.
    func learn(_ key: ObservedPropertyKey) {}
}
