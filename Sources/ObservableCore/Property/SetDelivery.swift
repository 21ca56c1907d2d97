import Synchronization

extension ObserverList {
    /// The entries a set notifies, or `nil` when there are none. A non-`nil` snapshot must be ended,
    /// by `SetSnapshot.deliverDidChange`.
    @inlinable
    func snapshot() -> SetSnapshot? {
        if liveCount.load(ordering: .relaxed) == 0 { return nil }
        let (table, stamp) = beginRead()
        return SetSnapshot(
            list: Unmanaged.passUnretained(self), run: table.run(stamp: stamp),
            notifiesWillChange: table.willChangeCount > 0)
    }
}

/// The delivery loops: how a set calls the entries of its snapshot.
extension EntryRun {
    @usableFromInline
    func deliverWillChange(_ object: AnyObject, _ oldValue: BorrowedValue) {
        for index in 0..<count {
            slots[index]?._withUnsafeGuaranteedRef { entry in
                if entry.wantsWillChange { entry.notify(entry, object, oldValue, nil, nil, stamp) }
            }
        }
    }

    /// `deliverWillChange` for a value of the property's type. Specialised in the caller's module.
    @inlinable
    func deliverWillChange<Value>(_ object: AnyObject, oldValue: Value) {
        BorrowedValue.lend(oldValue) { deliverWillChange(object, $0) }
    }

    /// Delivers the change after the store, inlined in the setter; entries are kept alive by the
    /// reader count, not retained. Default-options observations through `Object` share one change,
    /// built at the first and handed to their handlers from here; the rest get `notify`, in order.
    @inlinable
    func deliverDidChange<Object: AnyObject, Value>(
        _ object: Object, oldValue: Value, newValue: Value, _ mutation: CollectionMutation?
    ) {
        typealias Sharing = DefaultOptionsObservation<Object, Value>
        let sharing = Sharing.identity
        BorrowedValue.lend(oldValue) { old in
            BorrowedValue.lend(newValue) { new in
                var index = 0
                // Up to the first entry that shares the change.
                while index < count {
                    if let entry = slots[index] {
                        if entry._withUnsafeGuaranteedRef({ Sharing.sharesChange($0, identity: sharing) }) { break }
                        entry._withUnsafeGuaranteedRef { $0.notify($0, object, old, new, mutation, stamp) }
                    }
                    index += 1
                }
                guard index < count else { return }
                // The first one, just tested: the change is built with its key path.
                var change = slots[index].unsafelyUnwrapped._withUnsafeGuaranteedRef { entry in
                    Sharing.deliverFirst(to: entry, object, oldValue: oldValue, newValue: newValue, mutation)
                }
                // The rest, walked by address: kept in registers across the calls.
                let end = slots + count
                var slot = slots + index + 1
                while slot < end {
                    slot.pointee?._withUnsafeGuaranteedRef { entry in
                        // Ended ones go to `notify`, which does nothing for them.
                        if Sharing.sharesChange(entry, identity: sharing) {
                            Sharing.deliver(&change, to: entry, object)
                        } else {
                            entry.notify(entry, object, old, new, mutation, stamp)
                        }
                    }
                    slot += 1
                }
            }
        }
    }
}

/// Who is notified of one change: the entries registered when the set began, kept alive and in
/// place by the set's read of the list until `deliverDidChange` ends it.
@usableFromInline
struct SetSnapshot {
    @usableFromInline let list: Unmanaged<ObserverList>
    @usableFromInline let run: EntryRun
    @usableFromInline let notifiesWillChange: Bool

    @inlinable
    init(list: Unmanaged<ObserverList>, run: EntryRun, notifiesWillChange: Bool) {
        self.list = list
        self.run = run
        self.notifiesWillChange = notifiesWillChange
    }

    /// Delivers `.prior` to the entries that asked for it, after teaching the list the property's
    /// key if an entry waits for it. Specialised in the caller's module.
    @inlinable
    func deliverWillChange<Object: AnyObject, Value>(
        _ object: Object, oldValue: Value, _ keyPath: () -> KeyPath<Object, Value>
    ) {
        list._withUnsafeGuaranteedRef { list in
            if list.awaitsPropertyKey { list.learn(TypedObservedPropertyKey(keyPath())) }
        }
        run.deliverWillChange(object, oldValue: oldValue)
    }

    /// Delivers the change after the store, then ends the snapshot: call it exactly once.
    /// Specialised in the caller's module.
    @inlinable
    func deliverDidChange<Object: AnyObject, Value>(
        _ object: Object, oldValue: Value, newValue: Value, _ mutation: CollectionMutation?
    ) {
        run.deliverDidChange(object, oldValue: oldValue, newValue: newValue, mutation)
        list._withUnsafeGuaranteedRef { $0.endRead() }
    }
}
