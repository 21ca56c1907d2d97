/// How a list entry is told about a change: the entry itself, the observed object, the old value, the
/// new value or `nil` for the notification before the store (`.prior`), and what an in-place
/// collection mutation did. The values are passed by address and are of the property's type.
///
/// A capture-free function stored in the entry rather than a virtual method: a set reaches each
/// observer with one indirect call, and a direct observation's function is built and specialised by
/// the `@inlinable` caller of `observe`, so a notification never looks up generic metadata.
@usableFromInline
typealias EntryNotification = (ListEntry, AnyObject, UnsafeRawPointer, UnsafeRawPointer?, CollectionMutation?) -> Void

/// One entry of a property's observer list: a direct observation, or one link of a path observation.
///
/// Not generic, on purpose: a set reaches its observers through `notify` with the old and new values
/// passed by address. Anything typed happens in code specialised in the user's module (the function a
/// direct observation carries, the `@inlinable` slot methods), so a notification never looks up
/// generic metadata at run time.
@usableFromInline
class ListEntry: @unchecked Sendable {
    /// Position in the owning list's `entries`; guarded by that list's lock.
    final var index = -1
    /// Whether the entry wants `willChange` (before the store) as well as `didChange`.
    @usableFromInline
    final let wantsWillChange: Bool
    /// Called for each change the entry hears about, with the entry itself.
    @usableFromInline
    final let notify: EntryNotification

    init(wantsWillChange: Bool, notify: @escaping EntryNotification) {
        self.wantsWillChange = wantsWillChange
        self.notify = notify
    }

    /// The observed instance was deallocated; the list has already dropped this entry.
    func listEnded() {}
}

/// Who is notified of one change: the entries registered when the set began, in order.
///
/// Used by the `@Observed` macro; do not use directly.
@_documentation(visibility: private)
public struct _$Snapshot {
    @usableFromInline let entries: ContiguousArray<ListEntry?>
    @usableFromInline let notifiesWillChange: Bool

    init(entries: ContiguousArray<ListEntry?>, notifiesWillChange: Bool) {
        self.entries = entries
        self.notifiesWillChange = notifiesWillChange
    }

    @usableFromInline
    func deliverWillChange(_ object: AnyObject, _ oldValue: UnsafeRawPointer) {
        forEachEntry { entry in
            if entry.wantsWillChange { entry.notify(entry, object, oldValue, nil, nil) }
        }
    }

    @usableFromInline
    func deliverDidChange(_ object: AnyObject, _ oldValue: UnsafeRawPointer, _ newValue: UnsafeRawPointer,
                          _ mutation: CollectionMutation?) {
        forEachEntry { entry in entry.notify(entry, object, oldValue, newValue, mutation) }
    }

    /// `deliverWillChange` for a value of the property's type. Specialised in the caller's module.
    @inlinable
    func deliverWillChange<Value>(_ object: AnyObject, oldValue: Value) {
        withUnsafePointer(to: oldValue) { deliverWillChange(object, UnsafeRawPointer($0)) }
    }

    /// `deliverDidChange` for values of the property's type. Specialised in the caller's module.
    @inlinable
    func deliverDidChange<Value>(_ object: AnyObject, oldValue: Value, newValue: Value, _ mutation: CollectionMutation?) {
        withUnsafePointer(to: oldValue) { oldValue in
            withUnsafePointer(to: newValue) { newValue in
                deliverDidChange(object, UnsafeRawPointer(oldValue), UnsafeRawPointer(newValue), mutation)
            }
        }
    }

    /// Calls `body` with each entry, without retaining it: the snapshot holds every entry strongly
    /// for as long as it exists, and it outlives the loop. (Retaining each entry cost more than the
    /// rest of a notification: entries are weakly referenced by their tokens, which sends their
    /// retains and releases down the runtime's slow side-table path.)
    @inline(__always)
    private func forEachEntry(_ body: (ListEntry) -> Void) {
        entries.withUnsafeBufferPointer { buffer in
            let raw = UnsafeRawBufferPointer(buffer)
            for index in buffer.indices {
                guard let pointer = raw.load(fromByteOffset: index * MemoryLayout<UnsafeRawPointer?>.stride,
                                             as: UnsafeRawPointer?.self) else { continue }
                Unmanaged<ListEntry>.fromOpaque(pointer)._withUnsafeGuaranteedRef(body)
            }
        }
    }
}

/// What a set captures before the store: who is notified after it, and the old value.
///
/// Used by the `@Observed` macro; do not use directly.
@_documentation(visibility: private)
public struct _$PendingChange<Value> {
    @usableFromInline let snapshot: _$Snapshot
    @usableFromInline let oldValue: Value

    @inlinable
    init(snapshot: _$Snapshot, oldValue: Value) {
        self.snapshot = snapshot
        self.oldValue = oldValue
    }
}

/// The observations of one property of one instance, in registration order. Owned by the
/// instance's slot; ended (with every observation in it) when the instance is deallocated.
///
/// Registration appends; cancellation leaves a `nil` hole found through the entry's stored index and
/// compacts when holes outnumber entries, so adding and removing are amortised O(1) and a million
/// observations on one property stay linear. A set copies the entry array under the lock (a retain of
/// its buffer) and calls out after releasing it; the lock never covers user code.
@usableFromInline
final class ObserverList: @unchecked Sendable {
    private let lock = SpinLock()
    // Guarded by `lock`, so the run-time exclusivity checks Swift would add (they showed up as an
    // eighth of a one-observer set: swift_beginAccess and its thread-local access set) are off.
    @exclusivity(unchecked) private var entries: ContiguousArray<ListEntry?> = []
    @exclusivity(unchecked) private var liveCount = 0
    @exclusivity(unchecked) private var willChangeCount = 0
    @exclusivity(unchecked) private var isEnded = false

    /// Adds `entry` at the end; `false` (and nothing added) if the instance is being deallocated.
    func add(_ entry: ListEntry) -> Bool {
        lock.withLock {
            if isEnded { return false }
            entry.index = entries.count
            entries.append(entry)
            liveCount += 1
            if entry.wantsWillChange { willChangeCount += 1 }
            return true
        }
    }

    /// Removes `entry` if it is still registered; safe to call any number of times.
    func remove(_ entry: ListEntry) {
        let removed: ListEntry? = lock.withLock {
            let index = entry.index
            guard !isEnded, index >= 0, index < entries.count, entries[index] === entry else { return nil }
            var removed: ListEntry?   // moved out, not copied: no retain here, one release after the lock
            swap(&removed, &entries[index])
            entry.index = -1
            liveCount -= 1
            if entry.wantsWillChange { willChangeCount -= 1 }
            if liveCount == 0 && entries.capacity > 16 {
                entries = []   // a large buffer is freed; a small one is kept for the next observation
            } else if index == entries.count - 1 {
                // Cancelling the newest observation (the observe/cancel pattern) leaves no hole.
                while let last = entries.last, last == nil { entries.removeLast() }
            } else if entries.count >= 16 && liveCount * 2 < entries.count {
                compact()
            }
            return removed
        }
        // `removed` (possibly the last reference to the entry and to what its handler captured) is
        // released here, after the lock.
        withExtendedLifetime(removed) {}
    }

    private func compact() {
        var live = ContiguousArray<ListEntry?>()
        live.reserveCapacity(liveCount)
        for case let entry? in entries {
            entry.index = live.count
            live.append(entry)
        }
        entries = live
    }

    /// Ends the list: called once, by the slot, when the observed instance is deallocated.
    func end() {
        let ended: ContiguousArray<ListEntry?> = lock.withLock {
            isEnded = true
            liveCount = 0
            willChangeCount = 0
            var taken: ContiguousArray<ListEntry?> = []
            swap(&taken, &entries)
            return taken
        }
        for case let entry? in ended {
            entry.listEnded()
        }
    }

    /// The entries a set notifies, or `nil` when there are none.
    @usableFromInline
    func snapshot() -> _$Snapshot? {
        let (entries, notifiesWillChange) = lock.withLock { () -> (ContiguousArray<ListEntry?>, Bool) in
            (liveCount == 0 ? [] : self.entries, willChangeCount > 0)
        }
        return entries.isEmpty ? nil : _$Snapshot(entries: entries, notifiesWillChange: notifiesWillChange)
    }

    /// The path observations linked into this list (for manual notification of computed properties).
    func pathDependents() -> [any PathDependent] {
        let links = lock.withLock { entries.compactMap { $0 as? PathLink } }
        return links.map(\.dependent)
    }

    /// Registers `dependent` to hear about every change of this property; `nil` if the list has ended.
    func attach(_ dependent: any PathDependent) -> (any DependencyLink)? {
        let link = PathLink(list: self, dependent: dependent)
        return add(link) ? link : nil
    }
}
