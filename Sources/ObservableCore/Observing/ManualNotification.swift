extension KeyValueObservable {
    /// Announces that the value at `keyPath` is about to change: Cocoa's `willChangeValue(forKey:)`,
    /// for `@Observed(notifiesAutomatically: false)` and computed properties. Pair it with
    /// ``didChangeValue(for:)`` on the same thread, or use ``notifyingChange(of:_:)``. Root the
    /// key path at the declaring class: `\Subclass.balance` reaches only observations made with it.
    public func willChangeValue<Value>(for keyPath: KeyPath<Self, Value>) {
        ManualChanges.willChange(self, keyPath)
    }

    /// Sends the change announced by the matching ``willChangeValue(for:)``: Cocoa's
    /// `didChangeValue(forKey:)`. Without one it does nothing (a debug build says so).
    public func didChangeValue<Value>(for keyPath: KeyPath<Self, Value>) {
        ManualChanges.didChange(self, keyPath)
    }

    /// Runs `body` between ``willChangeValue(for:)`` and ``didChangeValue(for:)``; the change is
    /// sent even when `body` throws.
    public func notifyingChange<Value, Result>(of keyPath: KeyPath<Self, Value>, _ body: () throws -> Result) rethrows
        -> Result
    {
        willChangeValue(for: keyPath)
        defer { didChangeValue(for: keyPath) }
        return try body()
    }
}

/// One announced change, waiting for its `didChangeValue`.
private final class PendingManualChange {
    let object: ObjectIdentifier
    let keyPath: AnyKeyPath
    /// For an `@Observed` property: who is told (snapshotted now, as a setter does) and the old value.
    let direct: (entries: RetainedEntries, oldValue: Any)?
    /// For a computed property: its path observations on this object.
    let dependents: [PathObservationBase]

    init(
        object: AnyObject, keyPath: AnyKeyPath, direct: (entries: RetainedEntries, oldValue: Any)?,
        dependents: [PathObservationBase]
    ) {
        self.object = ObjectIdentifier(object)
        self.keyPath = keyPath
        self.direct = direct
        self.dependents = dependents
    }
}

/// The changes announced on one thread and not yet sent, innermost last.
private final class ManualChangeStack {
    var pending: [PendingManualChange] = []
}

enum ManualChanges {
    static func willChange<Root: AnyObject, Value>(_ root: Root, _ keyPath: KeyPath<Root, Value>) {
        let (value, accesses) = Tracking.evaluate(root, keyPath)
        let pending: PendingManualChange
        if let list = accesses.directList(of: root, keyPath) {
            if list.awaitsPropertyKey { list.learn(TypedObservedPropertyKey(keyPath)) }
            let entries = RetainedEntries(of: list)
            if let entries, entries.notifiesWillChange {
                entries.withRun { $0.deliverWillChange(root, oldValue: value) }
            }
            pending = PendingManualChange(
                object: root, keyPath: keyPath, direct: entries.map { ($0, value as Any) }, dependents: [])
        } else {
            var seen = Set<ObjectIdentifier>()
            let dependents =
                accesses
                .flatMap { $0.list.pathObservations() }
                .filter { $0.observes(root, keyPath) && seen.insert(ObjectIdentifier($0)).inserted }
            for dependent in dependents where dependent.keepsValueBeforeChange {
                dependent.dependencyWillChange(from: nil, root: root, stamp: ObserverList.unstamped)
            }
            pending = PendingManualChange(object: root, keyPath: keyPath, direct: nil, dependents: dependents)
        }
        push(pending)
    }

    static func didChange<Root: AnyObject, Value>(_ root: Root, _ keyPath: KeyPath<Root, Value>) {
        guard let pending = pop(root, keyPath) else {
            Diagnostics.warnUnbalancedDidChange(keyPath)
            return
        }
        if let (entries, oldValue) = pending.direct {
            let newValue = Tracking.value(root, keyPath)
            entries.withRun { $0.deliverDidChange(root, oldValue: oldValue as! Value, newValue: newValue, nil) }
        }
        for dependent in pending.dependents {
            dependent.dependencyDidChange(
                from: nil, root: root, stamp: ObserverList.unstamped, leafOld: nil, mutated: false)
        }
    }

    private static func push(_ change: PendingManualChange) {
        let stack: ManualChangeStack
        if let current = ThreadLocal.get(.manualChanges, as: ManualChangeStack.self) {
            stack = current
        } else {
            stack = ManualChangeStack()
            ThreadLocal.exchange(.manualChanges, stack)
        }
        stack.pending.append(change)
    }

    /// The innermost pending change of `keyPath` on `root`; the stack is freed once empty.
    private static func pop(_ root: AnyObject, _ keyPath: AnyKeyPath) -> PendingManualChange? {
        guard let stack = ThreadLocal.get(.manualChanges, as: ManualChangeStack.self) else { return nil }
        let id = ObjectIdentifier(root)
        guard let index = stack.pending.lastIndex(where: { $0.object == id && $0.keyPath == keyPath }) else {
            return nil
        }
        let pending = stack.pending.remove(at: index)
        if stack.pending.isEmpty { ThreadLocal.exchange(.manualChanges, nil) }
        return pending
    }
}
