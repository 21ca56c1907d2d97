/// The non-generic face of a property's observer list, so the slot can own and end it without
/// knowing the property's type.
@usableFromInline
class ObserverListBase: @unchecked Sendable {
    /// Ends every observation in the list; called once, when the observed instance is deallocated.
    func end() {}
}

/// What tracking needs from a list whose value type it does not know.
protocol ObserverListProtocol: AnyObject, Sendable {
    /// Registers `dependent` to hear about every change of this property; `nil` if the list has ended.
    func attach(_ dependent: any PathDependent) -> (any DependencyLink)?
}

/// One entry of a property's observer list: a direct observation, or one link of a path observation.
class Observer<Value>: @unchecked Sendable {
    /// Position in the owning list's `entries`; guarded by that list's lock.
    var index = -1
    /// Whether the entry wants `willChange` (before the store) as well as `didChange`.
    let wantsWillChange: Bool

    init(wantsWillChange: Bool) {
        self.wantsWillChange = wantsWillChange
    }

    func willChange(_ object: AnyObject, _ oldValue: Value) {}
    func didChange(_ object: AnyObject, _ oldValue: Value, _ newValue: Value) {}
    /// The observed instance was deallocated; the list has already dropped this entry.
    func listEnded() {}
}

/// What a set captures before the store: who is notified after it, and the old value.
///
/// Used by the `@Observed` macro; do not use directly.
@_documentation(visibility: private)
public struct _$PendingChange<Value> {
    let observers: ContiguousArray<Observer<Value>?>
    let oldValue: Value
}

/// The observations of one property of one instance, in registration order.
///
/// Registration appends; cancellation leaves a `nil` hole found through the entry's stored index and
/// compacts when holes outnumber entries, so adding and removing are amortised O(1) and a million
/// observations on one property stay linear. A set copies the entry array under the lock (a retain of
/// its buffer) and calls out after releasing it; the lock never covers user code.
final class PropertyObservers<Value>: ObserverListBase, ObserverListProtocol, @unchecked Sendable {
    private let lock = Lock()
    private var entries: ContiguousArray<Observer<Value>?> = []
    private var liveCount = 0
    private var willChangeCount = 0
    private var isEnded = false

    /// Adds `entry` at the end; `false` (and nothing added) if the instance is being deallocated.
    func add(_ entry: Observer<Value>) -> Bool {
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
    func remove(_ entry: Observer<Value>) {
        let removed: Observer<Value>? = lock.withLock {
            let index = entry.index
            guard !isEnded, index >= 0, index < entries.count, entries[index] === entry else { return nil }
            let removed = entries[index]
            entries[index] = nil
            entry.index = -1
            liveCount -= 1
            if entry.wantsWillChange { willChangeCount -= 1 }
            if liveCount == 0 {
                entries = []
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
        var live = ContiguousArray<Observer<Value>?>()
        live.reserveCapacity(liveCount)
        for case let entry? in entries {
            entry.index = live.count
            live.append(entry)
        }
        entries = live
    }

    override func end() {
        let ended: ContiguousArray<Observer<Value>?> = lock.withLock {
            isEnded = true
            liveCount = 0
            willChangeCount = 0
            var taken: ContiguousArray<Observer<Value>?> = []
            swap(&taken, &entries)
            return taken
        }
        for case let entry? in ended {
            entry.listEnded()
        }
    }

    func willSet(_ object: AnyObject, _ oldValue: Value) -> _$PendingChange<Value>? {
        let (snapshot, notifyWillChange) = lock.withLock { () -> (ContiguousArray<Observer<Value>?>, Bool) in
            (liveCount == 0 ? [] : entries, willChangeCount > 0)
        }
        if snapshot.isEmpty { return nil }
        if notifyWillChange {
            for case let entry? in snapshot where entry.wantsWillChange {
                entry.willChange(object, oldValue)
            }
        }
        return _$PendingChange(observers: snapshot, oldValue: oldValue)
    }

    static func didSet(_ object: AnyObject, _ change: _$PendingChange<Value>, _ newValue: Value) {
        for case let entry? in change.observers {
            entry.didChange(object, change.oldValue, newValue)
        }
    }

    func attach(_ dependent: any PathDependent) -> (any DependencyLink)? {
        let link = PathLink(list: self, dependent: dependent)
        return add(link) ? link : nil
    }
}
