import Synchronization

/// An observation of one `@Observed` property of the object itself (`\.name`), fed the setter's
/// values through one indirect call of `notify`. Not generic: the typed handler is the subclass's.
@usableFromInline
class DirectObservation: ListEntry, @unchecked Sendable {
    @usableFromInline let keyPath: InternedKeyPath
    // Written by `register` before publication; retained by hand so `didCancel` needs no retain.
    @exclusivity(unchecked) private var list: Unmanaged<ObserverList>?

    /// `notify` checks ``isActive`` before calling anything: a cancelled observation is never called.
    @usableFromInline
    init(options: ObservationOptions, keyPath: InternedKeyPath, notify: @escaping EntryNotification) {
        self.keyPath = keyPath
        super.init(options: options, notify: notify)
    }

    /// Adds the observation to `list`; ended at once if the object is being deallocated.
    func register(in list: Unmanaged<ObserverList>) {
        self.list = list.retain()
        if !list._withUnsafeGuaranteedRef({ $0.add(self) }) { state.store(0, ordering: .releasing) }
    }

    override func didCancel() {
        // The token that cancels holds this observation, and with it the list.
        list?._withUnsafeGuaranteedRef { $0.remove(self) }
    }

    override func listEnded() {
        _ = claimEnd()
    }

    override func summary() -> ObservationSummary? {
        ObservationSummary(keyPath: keyPath.object, options: options, origin: origin, isPath: false, root: nil)
    }

    deinit {
        list?.release()
    }
}

/// A direct observation that receives typed changes: a token's (`TypedDirectObservation`) or a
/// controller's (`ControllerDirectObservation`). Its notify function and delivery are written once,
/// in the extension below, and specialised for each where `observe` is called.
@usableFromInline
protocol DirectChangeReceiver: DirectObservation {
    associatedtype Root: AnyObject
    associatedtype Value
    /// Hands `change` to the handler, unless the receiver declines it (a controller's replaced
    /// registration, or one whose observer is gone).
    func receive(_ root: Root, _ change: ObservedChange<Value>)
}

/// A direct observation with its handler, typed, specialised where `observe` is called.
@usableFromInline
class TypedDirectObservation<Root: AnyObject, Value>: DirectObservation, DirectChangeReceiver, @unchecked Sendable {
    @usableFromInline final let handler: (Root, ObservedChange<Value>) -> Void

    @inlinable
    init(
        options: ObservationOptions, keyPath: InternedKeyPath, handler: @escaping (Root, ObservedChange<Value>) -> Void,
        notify: @escaping EntryNotification
    ) {
        self.handler = handler
        super.init(options: options, keyPath: keyPath, notify: notify)
    }

    @inlinable @inline(__always)
    final func receive(_ root: Root, _ change: ObservedChange<Value>) {
        handler(root, change)
    }
}

/// A direct observation with the default options, which a set recognises by class and calls with
/// the change built once for all of them (`ObserverList.EntryRun.deliverDidChange`).
@usableFromInline
final class DefaultOptionsObservation<Root: AnyObject, Value>: TypedDirectObservation<Root, Value>, @unchecked Sendable
{
    @inlinable
    init(
        keyPath: InternedKeyPath, handler: @escaping (Root, ObservedChange<Value>) -> Void,
        notify: @escaping EntryNotification
    ) {
        super.init(options: [.old, .new], keyPath: keyPath, handler: handler, notify: notify)
    }

    /// The class's identity, looked up once per set (a call for a generic class).
    @inlinable @inline(__always)
    static var identity: ObjectIdentifier { ObjectIdentifier(self) }

    /// Whether `entry` is a live observation of that class, which a set calls with the shared change.
    @inlinable @inline(__always)
    static func sharesChange(_ entry: ListEntry, identity: ObjectIdentifier) -> Bool {
        ObjectIdentifier(type(of: entry)) == identity && entry.state.load(ordering: .acquiring) != 0
    }

    /// Builds the change for the first accepted entry and calls it; returns the change for the others.
    @inlinable @inline(__always)
    static func deliverFirst(
        to entry: ListEntry, _ object: Root, oldValue: Value, newValue: Value, _ mutation: CollectionMutation?
    ) -> ObservedChange<Value> {
        let observation = unsafeDowncast(entry, to: Self.self)
        let change = ObservationOptions([.old, .new]).contents(
            old: oldValue, new: newValue, isPrior: false, keyPath: observation.keyPath, mutation: mutation)
        observation.handler(object, change)
        return change
    }

    @inlinable @inline(__always)
    static func deliver(_ change: inout ObservedChange<Value>, to entry: ListEntry, _ object: Root) {
        // Its class says that the handler takes a `Root` and a change of `Value`.
        let observation = unsafeDowncast(entry, to: Self.self)
        change._keyPath = observation.keyPath
        observation.handler(object, change)
    }
}

/// A direct observation told when its object is deallocated, a class of its own so the others
/// carry no field for the hook.
@usableFromInline
final class HookedDirectObservation<Root: AnyObject, Value>: TypedDirectObservation<Root, Value>, @unchecked Sendable {
    @usableFromInline let onObservedDeallocated: DeallocationHook

    @inlinable
    init(
        options: ObservationOptions, keyPath: InternedKeyPath, handler: @escaping (Root, ObservedChange<Value>) -> Void,
        onObservedDeallocated: @escaping DeallocationHook, notify: @escaping EntryNotification
    ) {
        self.onObservedDeallocated = onObservedDeallocated
        super.init(options: options, keyPath: keyPath, handler: handler, notify: notify)
    }

    override func listEnded() {
        if claimEnd() { onObservedDeallocated() }
    }
}

extension DirectObservation {
    @inlinable
    static func make<Root: AnyObject, Value>(
        options: ObservationOptions, keyPath: InternedKeyPath, onObservedDeallocated: DeallocationHook?,
        handler: @escaping (Root, ObservedChange<Value>) -> Void, notify: @escaping EntryNotification
    ) -> DirectObservation {
        if let onObservedDeallocated {
            HookedDirectObservation(
                options: options, keyPath: keyPath, handler: handler, onObservedDeallocated: onObservedDeallocated,
                notify: notify)
        } else if options.isDefault {
            DefaultOptionsObservation(keyPath: keyPath, handler: handler, notify: notify)
        } else {
            TypedDirectObservation(options: options, keyPath: keyPath, handler: handler, notify: notify)
        }
    }
}

extension DirectChangeReceiver {
    /// The notify function for `options`, compiled where the caller is; captures nothing.
    @inlinable
    static func notifyFunction(options: ObservationOptions) -> EntryNotification {
        options.isDefault
            ? { entry, object, old, new, mutation, _ in
                deliver(entry, object, old, new, mutation, options: [.old, .new])
            }
            : { entry, object, old, new, mutation, _ in deliver(entry, object, old, new, mutation, options: nil) }
    }

    /// The notify function's body; `options` is a constant where known (its tests fold), else `nil`.
    @inlinable @inline(__always)
    static func deliver(
        _ entry: ListEntry, _ object: AnyObject, _ oldValue: BorrowedValue,
        _ newValue: BorrowedValue?, _ mutation: CollectionMutation?, options: ObservationOptions?
    ) {
        // Only this observation's list entry calls this function, with itself.
        let observation = unsafeDowncast(entry, to: Self.self)
        guard observation.isActive else { return }
        // The list belongs to the observed instance and its setter passes that instance.
        let root = unsafeDowncast(object, to: Root.self)
        withChange(
            oldValue, newValue, mutation, options: options ?? observation.options, keyPath: observation.keyPath
        ) { change in
            observation.receive(root, change)
        }
    }
}

extension DirectObservation {
    /// The change for one notification (`newValue` `nil` before the store), given to `deliver`.
    @inlinable @inline(__always)
    static func withChange<Value>(
        _ oldValue: BorrowedValue, _ newValue: BorrowedValue?, _ mutation: CollectionMutation?,
        options: ObservationOptions, keyPath: InternedKeyPath, _ deliver: (ObservedChange<Value>) -> Void
    ) {
        if let newValue {
            if let mutation {
                if let change = options.change(
                    old: oldValue.read(as: Value.self), new: newValue.read(as: Value.self), isPrior: false,
                    keyPath: keyPath, mutation: mutation)
                {
                    deliver(change)
                }
            } else if let change = options.change(
                // A constant `nil` mutation: the change is built without retaining and releasing it.
                old: oldValue.read(as: Value.self), new: newValue.read(as: Value.self), isPrior: false,
                keyPath: keyPath)
            {
                deliver(change)
            }
        } else if let change = options.change(
            old: oldValue.read(as: Value.self), new: nil, isPrior: true, keyPath: keyPath)
        {
            deliver(change)
        }
    }
}
