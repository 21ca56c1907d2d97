import Observation

// A `@KeyValueObservable` class declaring `Observable`: the slot makes Observation's calls too, with
// the accessor's key path, where `@Observable`'s accessors make them, ours inside.

extension ObservationSlot {
    /// What `willSet(_:_:reportingTo:_:)` returns for `didSet(_:_:_:reportingTo:)`: the key path
    /// Observation's `didSet` is told, and our pending change (`nil` when nobody observes).
    public struct ReportedChange<Object: AnyObject, Value> {
        @usableFromInline let keyPath: KeyPath<Object, Value>
        @usableFromInline let change: PendingChange<Value>?

        @inlinable
        init(keyPath: KeyPath<Object, Value>, change: PendingChange<Value>?) {
            self.keyPath = keyPath
            self.change = change
        }
    }

    /// A read: reported to `registrar` (as `access(keyPath:)` does), then to key-path tracking.
    @inlinable @inline(__always)
    public func access<Object: Observable & AnyObject, Value>(
        _ object: Object, storedStrongly: Bool = true, reportingTo registrar: ObservationRegistrar,
        _ keyPaths: () -> (KeyPath<Object, Value>, chained: KeyPath<Object?, Value?>)
    ) {
        registrar.access(object, keyPath: keyPaths().0)
        if Self.isTracking { access(object, storedStrongly: storedStrongly, keyPaths) }
    }

    /// A read: reported to `registrar`, then to key-path tracking with the property's storage reader
    /// (see `access(_:_:)`).
    @inlinable @inline(__always)
    public func access<Object: Observable & AnyObject, Value>(
        _ object: Object, reportingTo registrar: ObservationRegistrar,
        _ accessors: () -> (KeyPath<Object, Value>, chained: KeyPath<Object?, Value?>, stored: (Object) -> Value)
    ) {
        registrar.access(object, keyPath: accessors().0)
        if Self.isTracking { access(object, accessors) }
    }

    /// Before a set: Observation's `willSet`, then ours (whether anyone observes is read between
    /// the two, as in `_modify`).
    @inlinable @inline(__always)
    public func willSet<Object: Observable & AnyObject, Value>(
        _ object: Object, _ oldValue: Value, reportingTo registrar: ObservationRegistrar,
        _ keyPath: () -> KeyPath<Object, Value>
    ) -> ReportedChange<Object, Value> {
        let keyPath = keyPath()
        registrar.willSet(object, keyPath: keyPath)
        guard isObserved else { return ReportedChange(keyPath: keyPath, change: nil) }
        return ReportedChange(keyPath: keyPath, change: willSet(object, oldValue) { keyPath })
    }

    /// After a set: ours, then Observation's `didSet`.
    @inlinable @inline(__always)
    public func didSet<Object: Observable & AnyObject, Value>(
        _ object: Object, _ change: ReportedChange<Object, Value>, _ newValue: Value,
        reportingTo registrar: ObservationRegistrar
    ) {
        didSet(object, change.change, newValue)
        registrar.didSet(object, keyPath: change.keyPath)
    }

    /// Before an in-place mutation: a read and a set for Observation, then ours; `willSet`'s body
    /// written again: a closure of its own would cost every in-place mutation.
    @inlinable @inline(__always)
    public func willModify<Object: Observable & AnyObject, Value>(
        _ object: Object, _ oldValue: Value, reportingTo registrar: ObservationRegistrar,
        _ keyPath: () -> KeyPath<Object, Value>
    ) -> ReportedChange<Object, Value> {
        let keyPath = keyPath()
        registrar.access(object, keyPath: keyPath)
        registrar.willSet(object, keyPath: keyPath)
        guard isObserved else { return ReportedChange(keyPath: keyPath, change: nil) }
        return ReportedChange(keyPath: keyPath, change: willSet(object, oldValue) { keyPath })
    }

    // After an in-place mutation: ours, then Observation's `didSet`; one overload per `didMutate`.

    /// After an in-place mutation of a value.
    @inlinable @inline(__always)
    public func didMutate<Object: Observable & AnyObject, Value>(
        _ object: Object, _ change: ReportedChange<Object, Value>, _ newValue: Value,
        reportingTo registrar: ObservationRegistrar
    ) {
        didMutate(object, change.change, newValue)
        registrar.didSet(object, keyPath: change.keyPath)
    }

    /// After an in-place mutation of a collection of `Equatable` elements.
    @inlinable @inline(__always)
    public func didMutate<Object: Observable & AnyObject, C: RandomAccessCollection & RangeReplaceableCollection>(
        _ object: Object, _ change: ReportedChange<Object, C>, _ newValue: C,
        reportingTo registrar: ObservationRegistrar
    ) where C.Element: Equatable {
        didMutate(object, change.change, newValue)
        registrar.didSet(object, keyPath: change.keyPath)
    }

    /// After an in-place mutation of a collection of class references.
    @inlinable @inline(__always)
    public func didMutate<Object: Observable & AnyObject, C: RandomAccessCollection & RangeReplaceableCollection>(
        _ object: Object, _ change: ReportedChange<Object, C>, _ newValue: C,
        reportingTo registrar: ObservationRegistrar
    ) where C.Element: AnyObject {
        didMutate(object, change.change, newValue)
        registrar.didSet(object, keyPath: change.keyPath)
    }

    /// After an in-place mutation of a collection of `Equatable` class references.
    @inlinable @inline(__always)
    public func didMutate<Object: Observable & AnyObject, C: RandomAccessCollection & RangeReplaceableCollection>(
        _ object: Object, _ change: ReportedChange<Object, C>, _ newValue: C,
        reportingTo registrar: ObservationRegistrar
    ) where C.Element: AnyObject, C.Element: Equatable {
        didMutate(object, change.change, newValue)
        registrar.didSet(object, keyPath: change.keyPath)
    }

    /// After an in-place mutation of a value whose type the macro saw as a generic parameter.
    @inlinable @inline(__always)
    public func didMutateGeneric<Object: Observable & AnyObject, Value>(
        _ object: Object, _ change: ReportedChange<Object, Value>, _ newValue: Value,
        reportingTo registrar: ObservationRegistrar
    ) {
        didMutateGeneric(object, change.change, newValue)
        registrar.didSet(object, keyPath: change.keyPath)
    }
}
