import Observation

/// Unsaved changes of an object: whether anything changed since tracking started or the last
/// ``markSaved()``, which properties with their original values, and ``revert()`` to them; Core
/// Data's `hasChanges` for any listed class. Its state is observable, SwiftUI included; safe from
/// any thread (<doc:UnsavedChangesAndUndo>).
@KeyValueObservable
public final class ChangeTracker: Observable, @unchecked Sendable {
    /// Whether a tracked property differs from its original value (or, not comparable, was set).
    public var hasChanges: Bool {
        _ = hasChangesSignal
        return lock.withLock { !records.published.names.isEmpty }
    }

    /// The names of the changed properties, in the order they were first changed.
    public var changedPropertyNames: [String] {
        _ = namesSignal
        return lock.withLock { records.published.names }
    }

    // Published under the lock; each property also reads an empty signal, set when it changes, so
    // that its observers are told from any thread without a race.
    private var hasChangesSignal: Void = ()
    private var namesSignal: Void = ()

    @Unobserved private let lock = Lock()
    /// Guarded by `lock`.
    @Unobserved private var records = Records()
    @Unobserved private var token: ObservationToken?

    /// Unavailable without the list `@KeyValueObservable` writes.
    @available(
        *, unavailable,
        message:
            "ChangeTracker finds properties in the list @KeyValueObservable writes: mark the class @KeyValueObservable"
    )
    public init<Object: KeyValueObservable>(tracking object: Object, deep: Bool = false) {
        fatalError("unavailable")
    }

    /// Starts tracking every `@Observed` property of `object`, as it is now.
    ///
    /// - Parameters:
    ///   - object: What to track; not kept alive.
    ///   - deep: Whether the objects `object` reaches are tracked too.
    public init<Object: ObservedPropertyListing>(tracking object: Object, deep: Bool = false) {
        token = ObservationToken(
            ObjectObservations.register(
                object, options: [.old, .new], deep: deep, origin: .token, onObservedDeallocated: nil
            ) { [weak self] root, change in
                // A child's change holds its object; the root's is the handler's `root`, at hand.
                self?.record(change, of: change.changedObject ?? root)
            })
    }

    /// The changed properties with their original and latest values, in the order first changed.
    public var changes: [TrackedChange] {
        lock.withLock { records.all.map(\.change) }
    }

    /// The original value of the property `name` if changed; otherwise `nil`.
    public func originalValue(of name: String) -> Any? {
        lock.withLock { records.all.first { $0.change.name == name }?.change.originalValue }
    }

    /// Takes the current values as the original ones: nothing is changed any more.
    public func markSaved() {
        lock.withLock { _ = records.removeAll() }
        publish()
    }

    /// Sets every changed property back through its setter, the last first changed first; those sets
    /// are not recorded. A property whose setter cannot be reached stays changed.
    public func revert() {
        let reverting = lock.withLock { records.removeAll() }
        var kept: [Record] = []
        for record in reverting.reversed() {
            guard let object = record.change.object,
                let key = record.change.property._withUnsafeGuaranteedRef({ $0.key })
            else { continue }
            lock.withLock { records.beginApplying(record.id) }
            let applied = key.set(record.change.originalValue, on: object)
            lock.withLock { records.endApplying() }
            if !applied { kept.append(record) }
        }
        if !kept.isEmpty { lock.withLock { records.restore(kept.reversed()) } }
        publish()
    }

    deinit {
        token?.cancel()
    }

    private func record(_ change: PropertyChange, of object: AnyObject) {
        let id = Record.ID(
            object: ObjectIdentifier(object), property: ObjectIdentifier(change.property.takeUnretainedValue()))
        let changed = lock.withLock { records.record(change, id: id, object: object) }
        if changed { publish() }
    }

    /// Publishes the records' state, and tells the observers of what changed (after the lock).
    private func publish() {
        let (hasChangesChanged, namesChanged) = lock.withLock { records.publish() }
        if hasChangesChanged { hasChangesSignal = () }
        if namesChanged { namesSignal = () }
    }
}

extension ChangeTracker {
    fileprivate struct Record {
        struct ID: Hashable {
            let object: ObjectIdentifier
            let property: ObjectIdentifier
        }

        let id: ID
        var change: TrackedChange
    }

    /// The changed properties in the order first changed, and the set the tracker is making itself.
    fileprivate struct Records {
        private(set) var all: [Record] = []
        /// What the tracker's properties show: the names of `all` when last published.
        private(set) var published = Published()

        struct Published {
            var names: [String] = []
        }

        /// Takes the current names as published; whether `hasChanges` and the names changed.
        mutating func publish() -> (hasChanges: Bool, names: Bool) {
            let names = all.map(\.change.name)
            defer { published.names = names }
            return (names.isEmpty != published.names.isEmpty, names != published.names)
        }
        /// The set `revert` is making, on which thread: its notification is not a change.
        private var applying: (thread: UInt, id: Record.ID)?

        /// Records `change` of the property `id`; `true` when what the tracker publishes may differ.
        mutating func record(_ change: PropertyChange, id: Record.ID, object: AnyObject) -> Bool {
            if let applying, applying.id == id, applying.thread == ThreadIdentity.current { return false }
            let new = change.newValue
            guard let index = all.firstIndex(where: { $0.id == id }) else {
                if ValueEquality.areEqual(change.oldValue, new) == true { return false }
                all.append(
                    Record(
                        id: id,
                        change: TrackedChange(
                            property: change.property, object: WeakObject(object), originalValue: change.oldValue,
                            value: new)))
                return true
            }
            let original = all[index].change.originalValue
            if ValueEquality.areEqual(original, new) == true {
                all.remove(at: index)
                return true
            }
            all[index].change.value = new
            return false
        }

        @discardableResult
        mutating func removeAll() -> [Record] {
            defer { all = [] }
            return all
        }

        /// Puts back records that could not be reverted, before any recorded since.
        mutating func restore(_ records: some Sequence<Record>) {
            all = Array(records) + all.filter { record in !records.contains { $0.id == record.id } }
        }

        /// Marks the set of `id` this thread is about to make as the tracker's own, until `endApplying`.
        mutating func beginApplying(_ id: Record.ID) {
            applying = (ThreadIdentity.current, id)
        }

        mutating func endApplying() {
            applying = nil
        }
    }
}
