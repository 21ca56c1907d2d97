/// A controller's registration of one `@Observed` property of the object: itself the list's entry,
/// fed the setter's values and delivering as a token's observation does (`DirectChangeReceiver`);
/// calls the handler while active, current and the observer alive.
@usableFromInline
final class ControllerDirectObservation<Observer: AnyObject, Root: AnyObject, Value>:
    ControllerHandler<Observer, Root, ObservedChange<Value>>, DirectChangeReceiver, @unchecked Sendable
{
    @inlinable
    init(
        objectID: ObjectIdentifier, keyPath: KeyPath<Root, Value>, interned: InternedKeyPath,
        options: ObservationOptions, observer: WeakReference<Observer>,
        handler: @escaping (Observer, Root, ObservedChange<Value>) -> Void, notify: @escaping EntryNotification
    ) {
        // `notify` is made by the caller, where `Root` and `Value` are known, so that it captures nothing.
        super.init(
            objectID: objectID, stringKey: nil, keyPath: interned, options: options, observer: observer,
            handler: handler, notify: notify)
    }

    /// Registers it at the slot and delivers `.initial`, as a token's is. Returns `nil`: itself the
    /// observation.
    @inlinable
    func start(atSlot offset: Int, of root: Root, _ typedKeyPath: KeyPath<Root, Value>) -> AnyObservation? {
        Registration.start(self, atSlot: offset, of: root, typedKeyPath, options: options, keyPath: keyPath) {
            deliver($0, $1)
        }
        return nil
    }

    @inlinable @inline(__always)
    func receive(_ root: Root, _ change: ObservedChange<Value>) {
        deliver(root, change)
    }

    override func listEnded() {
        if claimEnd() { objectDeallocated() }
    }
}
