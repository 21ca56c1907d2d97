import Synchronization

/// How a list entry is told about a change: the entry itself, the observed object, the old value, the
/// new value or `nil` for the notification before the store (`.prior`), what an in-place collection
/// mutation did, and the set's stamp (see `ObserverList.stamp`). The values are lent
/// (`BorrowedValue`) and are of the property's type.
///
/// A capture-free function stored in the entry rather than a virtual method: a set reaches each
/// observer with one indirect call, and a direct observation's function is built and specialised by
/// the `@inlinable` caller of `observe`, so a notification never looks up generic metadata.
@usableFromInline
typealias EntryNotification = (ListEntry, AnyObject, BorrowedValue, BorrowedValue?, CollectionMutation?, Int) -> Void

/// One entry of a property's observer list: a direct observation, or one entry of a path observation
/// (the observation itself for its first property, a link for the others: see `PathLinks`).
///
/// Not generic, on purpose: a set reaches its observers through `notify` with the old and new values
/// lent (`BorrowedValue`). Anything typed happens in code specialised in the user's module (the function a
/// direct observation carries, the `@inlinable` slot methods), so a notification never looks up
/// generic metadata at run time.
///
/// Its `state` (from `AnyObservation`) is `0` once the entry has ended (a direct observation
/// cancelled, or its object deallocated). A set recognises a `DefaultOptionsObservation`, whose
/// handler it calls itself, by its class (see `EntryRun.deliverDidChange`).
///
/// Layout: `options`, `countsForWillChange` and the index fill the word of `AnyObservation.state`, so
/// that a default-options observation stays in a small malloc chunk (`PathObservationLayoutTests`).
@usableFromInline
class ListEntry: AnyObservation, @unchecked Sendable {
    /// A direct observation's options; a path link's are `.prior` when it wants `willChange`, else
    /// none.
    @usableFromInline
    final let options: ObservationOptions
    /// Whether the entry is counted in its table's `willChangeCount`, which decides whether a set
    /// runs the `willChange` pass at all: from the start for one that wants `willChange`; a proven
    /// leaf's path link only while its path has a change in flight (see `LeafPathLink`). Guarded by the
    /// list's lock. (Declared here, before the index, so that it fits in the same word.)
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
