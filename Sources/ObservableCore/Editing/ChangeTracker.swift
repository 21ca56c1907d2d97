import Observation

/// Unsaved changes of an object: whether anything changed since tracking started or since the last
/// ``markSaved()``, which properties with their original values, and ``revert()`` to them. Core
/// Data's `hasChanges`, `changedValues()` and `committedValues(forKeys:)`, and SwiftData's
/// `hasChanges`, for any class with `@Observed` properties.
///
/// ```swift
/// let tracker = ChangeTracker(tracking: document)
/// document.title = "Minutes"
/// tracker.hasChanges                    // true
/// tracker.changes                       // [title: "" -> "Minutes"]
/// tracker.revert()                      // document.title == "", observers told
/// tracker.hasChanges                    // false
/// ```
///
/// A property set back to its original value is no longer changed, when its values can be compared
/// (`Equatable` ones, and objects by identity); a value that cannot be compared stays changed once
/// set. (Core Data's `hasChanges` stays `true` there, which is the complaint its
/// `hasPersistentChangedValues` answered.)
///
/// The tracker's own state is observable, by ``KeyValueObservable/observe(_:options:_:)`` and, as
/// the class is `Observable`, by Observation and SwiftUI: a Save button bound to ``hasChanges``
/// enables itself. It changes on the thread that edits the tracked object, when the tracker hears
/// the edit (after the property's observers registered before it), and may be read from any thread.
///
/// Tracking holds neither the object nor the tracker: it ends when the tracker is released, and
/// has nothing left to track when the object is deallocated. It is safe from any thread: edits made
/// on several threads at once are each recorded, and the tracker's state is guarded.
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

    // The published state is kept under the lock, so that it may be read from any thread; each
    // property above also reads a signal, set when its value changes: an empty value, which no
    // thread reads or writes, so setting it from any thread races with nothing, while its
    // observers (`observe`'s, Observation's) are told, and read the value again.
    private var hasChangesSignal: Void = ()
    private var namesSignal: Void = ()

    @Unobserved private let lock = Lock()
    /// Guarded by `lock`.
    @Unobserved private var records = Records()
    @Unobserved private var token: ObservationToken?

    /// Unavailable for a class that `@KeyValueObservable` does not list: the ChangeTracker finds the
    /// properties in its list.
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
    ///   - deep: Whether the objects `object` reaches are tracked too, as
    ///     ``ObservedPropertyListing/observeProperties(options:deep:_:)`` follows them: a change of any
    ///     of them is a change, with its object (``TrackedChange/object``), and reverting sets it back.
    public init<Object: ObservedPropertyListing>(tracking object: Object, deep: Bool = false) {
        token = ObservationToken(
            ObjectObservations.register(
                object, options: [.old, .new], deep: deep, origin: .token, onObservedDeallocated: nil
            ) { [weak self] root, change in
                self?.record(change, of: change.object ?? root)
            })
    }

    /// The changed properties with their original and latest values, in the order they were first
    /// changed.
    public var changes: [TrackedChange] {
        lock.withLock { records.all.map(\.change) }
    }

    /// The original value of the property named `name` if it is changed; `nil` otherwise (or when
    /// that value is `nil`: see ``changes``).
    public func originalValue(of name: String) -> Any? {
        lock.withLock { records.all.first { $0.change.name == name }?.change.originalValue }
    }

    /// Takes the current values as the original ones: nothing is changed any more.
    public func markSaved() {
        lock.withLock { _ = records.removeAll() }
        publish()
    }

    /// Sets every changed property back to its original value, through its setter, so that its
    /// observers are told, in the reverse of the order in which they were first changed. Those sets
    /// are not recorded as changes. A property that cannot be set from here (one whose setter the key
    /// path cannot reach) stays changed.
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

    /// Records a change of `object` heard by the tracking observation.
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
    /// One changed property.
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

        /// Every record, removed.
        @discardableResult
        mutating func removeAll() -> [Record] {
            defer { all = [] }
            return all
        }

        /// Puts back records that could not be reverted, before any recorded since.
        mutating func restore(_ records: some Sequence<Record>) {
            all = Array(records) + all.filter { record in !records.contains { $0.id == record.id } }
        }

        /// Marks the set of `id` about to be made on this thread as the tracker's own, until
        /// `endApplying` (the set itself is made after the lock: its observers run).
        mutating func beginApplying(_ id: Record.ID) {
            applying = (ThreadIdentity.current, id)
        }

        mutating func endApplying() {
            applying = nil
        }
    }
}
