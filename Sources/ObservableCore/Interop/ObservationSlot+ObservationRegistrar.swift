import Observation

// The slot's calls for a `@KeyValueObservable` class declaring `Observable` whose
// `access(keyPath:)` and `withMutation(keyPath:_:)` are the macro's: the slot makes Observation's
// calls too, with the key path the accessor already passes, so that each accessor is one call
// before the store and one after, as in a class that does not report (a smaller body for the
// compiler to check and emit). Each does Observation's work exactly where `@Observable`'s accessors
// do, and ours inside it: a read reports to the registrar, then to key-path tracking; a write tells
// the registrar's `willSet`, then our `.prior` observers, stores, tells our observers, then the
// registrar's `didSet`.

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

    /// Before an in-place mutation (`_modify`): a read and a set for Observation, as `@Observable`'s
    /// `_modify` reports it, then ours. `willSet(_:_:reportingTo:_:)`'s body written again rather than
    /// called with the key path in a closure of its own, which the speed gate's in-place row counted as
    /// more instructions.
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

    // After an in-place mutation: ours (with the collection change kinds `didMutate`'s overloads
    // give), then Observation's `didSet`. One overload per overload of `didMutate`, which is chosen at
    // compile time.

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
