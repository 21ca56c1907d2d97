import Synchronization

/// The per-instance, per-property observer slot the `@Observed` macro generates next to the storage.
///
/// One pointer: `nil` until the property is first observed on this instance, then the property's
/// ``_PropertyObservers`` list, owned by the slot. When the instance is deallocated the slot's `deinit`
/// ends the list, which ends every observation registered in it: that is the dealloc-time cleanup.
///
/// Used by the `@Observed` macro; do not call directly.
@_documentation(visibility: private)
public struct _$ObservationSlot: ~Copyable, @unchecked Sendable {
    @usableFromInline
    let list: Atomic<Unmanaged<ObserverListBase>?>

    public init() {
        list = Atomic(nil)
    }

    deinit {
        if let list = list.load(ordering: .acquiring) {
            list.takeRetainedValue().end()
        }
    }

    /// `true` once the property has been observed on this instance. The setter's fast path.
    @inlinable
    public var _$isObserved: Bool {
        list.load(ordering: .relaxed) != nil
    }

    /// Reports a read of the property to the current thread's tracking frame, if there is one.
    public func _$track<Object: AnyObject, Value>(_ object: Object, _ keyPath: KeyPath<Object, Value>) {
        guard let frame = TrackingFrame.current else { return }
        frame.record(object, observers(creating: Value.self), keyPath)
    }

    /// Before the store: delivers `.prior` notifications and snapshots who gets the one after it.
    /// Returns `nil` when nobody observes the property.
    public func _$willSet<Value>(_ object: AnyObject, _ oldValue: Value) -> _$PendingChange<Value>? {
        guard let list = existingObservers(Value.self) else { return nil }
        return list.willSet(object, oldValue)
    }

    /// After the store: delivers the notification to the observers snapshotted by `_$willSet`.
    public func _$didSet<Value>(_ object: AnyObject, _ change: _$PendingChange<Value>?, _ newValue: Value) {
        guard let change else { return }
        PropertyObservers<Value>.didSet(object, change, newValue)
    }

    private func existingObservers<Value>(_: Value.Type) -> PropertyObservers<Value>? {
        guard let base = list.load(ordering: .acquiring)?.takeUnretainedValue() else { return nil }
        // Every call for one slot comes from the accessors of one property, so `Value` is always the
        // type the list was created with (in `_$track`).
        return unsafeDowncast(base, to: PropertyObservers<Value>.self)
    }

    private func observers<Value>(creating _: Value.Type) -> PropertyObservers<Value> {
        if let existing = existingObservers(Value.self) { return existing }
        let created = Unmanaged.passRetained(PropertyObservers<Value>() as ObserverListBase)
        let (stored, current) = list.compareExchange(
            expected: nil, desired: created, successOrdering: .acquiringAndReleasing, failureOrdering: .acquiring)
        if stored { return unsafeDowncast(created.takeUnretainedValue(), to: PropertyObservers<Value>.self) }
        created.release()
        return unsafeDowncast(current!.takeUnretainedValue(), to: PropertyObservers<Value>.self)
    }
}
