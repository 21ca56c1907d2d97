/// A controller's registration of one `@Observed` property of the object: itself the list's entry,
/// fed the setter's values; calls the handler while active, current and the observer alive.
@usableFromInline
final class ControllerDirectObservation<Observer: AnyObject, Root: AnyObject, Value>:
    ControllerHandler<Observer, Root, ObservedChange<Value>>, @unchecked Sendable
{
    @inlinable
    init(
        objectID: ObjectIdentifier, keyPath: KeyPath<Root, Value>, interned: InternedKeyPath,
        options: ObservationOptions, observer: WeakReference<Observer>,
        handler: @escaping (Observer, Root, ObservedChange<Value>) -> Void
    ) {
        super.init(
            objectID: objectID, stringKey: nil, keyPath: interned, options: options, observer: observer,
            handler: handler, notify: Self.notifyFunction(options: options))
    }

    /// Registers it at the slot and delivers `.initial`, as `Registration.start` does (written out:
    /// through `start` the handler's closure is not folded in). Returns `nil`: itself the observation.
    @inlinable
    func start(atSlot offset: Int, of root: Root, _ typedKeyPath: KeyPath<Root, Value>) -> AnyObservation? {
        Registration.register(self, atSlot: offset, of: root)
        Registration.deliverInitial(to: self, options: options) {
            Registration.deliverInitial(of: root, at: typedKeyPath, options: options, keyPath: keyPath) {
                deliver($0, $1)
            }
        }
        return nil
    }

    override func listEnded() {
        if claimEnd() { objectDeallocated() }
    }

    /// The notify function for `options`, as `TypedDirectObservation`'s: shared through a protocol
    /// extension it would not be specialised here, and would allocate a context per `observe`.
    @inlinable
    static func notifyFunction(options: ObservationOptions) -> EntryNotification {
        options.isDefault
            ? { entry, object, old, new, mutation, _ in
                deliver(entry, object, old, new, mutation, options: [.old, .new])
            }
            : { entry, object, old, new, mutation, _ in deliver(entry, object, old, new, mutation, options: nil) }
    }

    @inlinable @inline(__always)
    static func deliver(
        _ entry: ListEntry, _ object: AnyObject, _ oldValue: BorrowedValue,
        _ newValue: BorrowedValue?, _ mutation: CollectionMutation?, options: ObservationOptions?
    ) {
        // Only this registration's list entry calls this function, with itself, and the list
        // belongs to the observed instance, which its setter passes.
        let registration = unsafeDowncast(entry, to: Self.self)
        guard registration.isActive, registration.isCurrent, let observer = registration.observer.value else { return }
        let root = unsafeDowncast(object, to: Root.self)
        withChange(
            oldValue, newValue, mutation, options: options ?? registration.options, keyPath: registration.keyPath
        ) { change in
            registration.handler(observer, root, change)
        }
    }
}
