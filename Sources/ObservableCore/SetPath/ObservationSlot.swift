import Synchronization

/// The per-instance, per-property observer slot the `@Observed` macro generates next to the storage.
///
/// One pointer: `nil` until the property is first observed on this instance, then the property's
/// observer list, owned by the slot. When the instance is deallocated the slot's `deinit` ends the
/// list, which ends every observation registered in it: that is the dealloc-time cleanup.
///
/// Used by the `@Observed` macro; do not call directly.
@_documentation(visibility: private)
public struct _$ObservationSlot: ~Copyable, @unchecked Sendable {
    @usableFromInline
    let list: Atomic<Unmanaged<ObserverList>?>

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
        _listAddress() != nil
    }

    /// The list's address, or `nil`: the setter's test. Out of line and `readonly` rather than an
    /// inline atomic load: Swift's ARC optimiser treats an atomic instruction as a barrier and would
    /// retain and release the object around every set; a `readonly` call is no barrier, and cannot be
    /// moved across the writes or calls that register an observation, so a set after `observe` always
    /// sees it. Returns the address rather than a `Bool` so that it is one load (the caller tests it).
    @usableFromInline
    @_effects(readonly) @inline(never)
    func _listAddress() -> UnsafeRawPointer? {
        list.load(ordering: .relaxed).map { UnsafeRawPointer($0.toOpaque()) }
    }

    /// Reports a read of the property to the current thread's tracking frame, if there is one.
    ///
    /// The getter passes its key path as a closure (`{ \.name }`), so that it forms nothing and calls
    /// nothing else on its slow path: with a single call here, and `releasenone` telling the optimiser
    /// that no object a caller might hold is released by it, a getter needs no retain and release of
    /// its object around the check. That holds: this retains the object and the key path into the
    /// frame, may create the property's list, and releases only a list it just created and lost a
    /// race to install.
    ///
    /// `chained` is the same property reached through an optional chain (`\Class?.?.name`): with
    /// it, and the wrapping function (a constant specialised here, for the property's type), a path
    /// proven to end in this property delivers the setter's values (see `PathProof`).
    @inlinable @inline(__always)
    public func _$track<Object: AnyObject, Value>(
        _ object: Object, _ keyPath: () -> KeyPath<Object, Value>, chained: () -> KeyPath<Object?, Value?>
    ) {
        // Non-generic below, so the slow path needs no type metadata (another call) either.
        _$track(erased: object, { keyPath() }, chained: { chained() }, wrap: { value, optional in
            optional.initializeMemory(as: Value?.self, to: .some(value.assumingMemoryBound(to: Value.self).pointee))
        })
    }

    @usableFromInline
    @_effects(releasenone)
    func _$track(erased object: AnyObject, _ keyPath: () -> AnyKeyPath, chained: () -> AnyKeyPath,
                 wrap: @escaping LeafWrap) {
        guard let frame = TrackingFrame.current else { return }
        frame.record(object, observers(), keyPath(), property: TrackedProperty(chained: chained(), wrap: wrap))
    }

    // A noncopyable property type gets these instead, so that the build fails saying why. (The
    // getter's key path, which Swift refuses for a noncopyable type, adds the compiler's own error.)
    @available(*, unavailable, message: "'@Observed' requires a copyable type")
    public func _$willSet<Value: ~Copyable>(_ object: AnyObject, _ oldValue: borrowing Value) -> _$PendingChange<Int>? { nil }
    @available(*, unavailable, message: "'@Observed' requires a copyable type")
    public func _$didSet<Object: AnyObject, Value: ~Copyable, Change>(_ object: Object, _ change: Change, _ newValue: borrowing Value) {}
    @available(*, unavailable, message: "'@Observed' requires a copyable type")
    public func _$didMutate<Object: AnyObject, Value: ~Copyable, Change>(_ object: Object, _ change: Change, _ newValue: borrowing Value) {}

    /// Before the store: delivers `.prior` notifications and snapshots who gets the one after it.
    /// Returns `nil` when nobody observes the property. Specialised in the caller's module.
    @inlinable
    public func _$willSet<Value>(_ object: AnyObject, _ oldValue: Value) -> _$PendingChange<Value>? {
        guard let snapshot = _$snapshot() else { return nil }
        if snapshot.notifiesWillChange { snapshot.deliverWillChange(object, oldValue: oldValue) }
        return _$PendingChange(snapshot: snapshot, oldValue: oldValue)
    }

    /// After the store: delivers the notification to the observers snapshotted by `_$willSet`.
    @inlinable
    public func _$didSet<Object: AnyObject, Value>(_ object: Object, _ change: _$PendingChange<Value>?, _ newValue: Value) {
        guard let change else { return }
        change.snapshot.deliverDidChange(object, oldValue: change.oldValue, newValue: newValue, nil)
    }

    /// After an in-place mutation (`_modify`): for most values the same as `_$didSet`. The overloads
    /// below, chosen at compile time for collections, also say what the mutation did.
    @inlinable
    public func _$didMutate<Object: AnyObject, Value>(_ object: Object, _ change: _$PendingChange<Value>?, _ newValue: Value) {
        _$didSet(object, change, newValue)
    }

    /// After an in-place mutation of a collection of `Equatable` elements: an insertion, removal or
    /// replacement with its indexes, found by comparing the old and new values (only when observed).
    @inlinable
    public func _$didMutate<Object: AnyObject, C: RandomAccessCollection & RangeReplaceableCollection>(
        _ object: Object, _ change: _$PendingChange<C>?, _ newValue: C
    ) where C.Element: Equatable {
        _didMutate(object, change, newValue, same: ==)
    }

    /// After an in-place mutation of a collection of class references, compared by identity.
    @inlinable
    public func _$didMutate<Object: AnyObject, C: RandomAccessCollection & RangeReplaceableCollection>(
        _ object: Object, _ change: _$PendingChange<C>?, _ newValue: C
    ) where C.Element: AnyObject {
        _didMutate(object, change, newValue, same: ===)
    }

    /// Both of the above apply to `Equatable` classes: their `==` decides.
    @inlinable
    public func _$didMutate<Object: AnyObject, C: RandomAccessCollection & RangeReplaceableCollection>(
        _ object: Object, _ change: _$PendingChange<C>?, _ newValue: C
    ) where C.Element: AnyObject, C.Element: Equatable {
        _didMutate(object, change, newValue, same: ==)
    }

    /// After an in-place mutation of a property whose type the macro saw as a generic parameter (or
    /// built from one): the overloads above are chosen at compile time, where such a type matches
    /// none of them, so the collection kinds are found at run time instead (only when observed).
    @inlinable
    public func _$didMutateGeneric<Object: AnyObject, Value>(
        _ object: Object, _ change: _$PendingChange<Value>?, _ newValue: Value
    ) {
        guard let change else { return }
        change.snapshot.deliverDidChange(
            object, oldValue: change.oldValue, newValue: newValue,
            CollectionMutation.detected(from: change.oldValue, to: newValue))
    }

    /// The collection overloads' common body: compares old and new with `same`, only when observed.
    @inlinable
    func _didMutate<Object: AnyObject, C: RandomAccessCollection>(
        _ object: Object, _ change: _$PendingChange<C>?, _ newValue: C, same: (C.Element, C.Element) -> Bool
    ) {
        guard let change else { return }
        change.snapshot.deliverDidChange(
            object, oldValue: change.oldValue, newValue: newValue,
            CollectionMutation(from: change.oldValue, to: newValue, same: same))
    }

    /// Inlined into the setter's slow path, with the delivery loop and the end of the read: as calls
    /// they were a large part of a one-observer set (BENCHMARKS.md, "What changed"). The fast path
    /// (`_listAddress`) stays an out-of-line `readonly` call.
    @inlinable
    func _$snapshot() -> _$Snapshot? {
        // The slot owns the list for as long as the instance lives, and the setter holds the instance:
        // no retain and release of the list around the call.
        list.load(ordering: .acquiring)?._withUnsafeGuaranteedRef { $0.snapshot() }
    }

    /// Whether `list` is this slot's list.
    func holds(_ list: ObserverList) -> Bool {
        self.list.load(ordering: .acquiring)?.toOpaque() == Unmanaged.passUnretained(list).toOpaque()
    }

    /// The list, created on first use. Every call for one slot comes from the accessors of one
    /// property, so the values its entries receive are always of that property's type.
    func observers() -> ObserverList {
        unretainedObservers().takeUnretainedValue()
    }

    /// The list, created on first use, unretained: the slot owns it while its instance lives.
    func unretainedObservers() -> Unmanaged<ObserverList> {
        if let existing = list.load(ordering: .acquiring) { return existing }
        let created = Unmanaged.passRetained(ObserverList())
        let (stored, current) = list.compareExchange(
            expected: nil, desired: created, successOrdering: .acquiringAndReleasing, failureOrdering: .acquiring)
        if stored { return created }
        created.release()
        return current.unsafelyUnwrapped
    }
}

// `@Observed(skipsEqualValues: true)`: whether a set would store what is already there. Overloads
// chosen at compile time: `==` for `Equatable` values (optionals included), identity for class
// references; a value that is neither is a compile-time error naming the requirement.

/// Used by the `@Observed` macro; do not call directly.
@_documentation(visibility: private)
@inlinable
public func _$isDuplicate<Value: Equatable>(_ old: Value, _ new: Value) -> Bool { old == new }

/// Used by the `@Observed` macro; do not call directly.
@_documentation(visibility: private)
@inlinable
public func _$isDuplicate<Value: AnyObject>(_ old: Value, _ new: Value) -> Bool { old === new }

/// Used by the `@Observed` macro; do not call directly.
@_documentation(visibility: private)
@inlinable
public func _$isDuplicate<Value: AnyObject & Equatable>(_ old: Value, _ new: Value) -> Bool { old == new }

/// Used by the `@Observed` macro; do not call directly.
@_documentation(visibility: private)
@inlinable
public func _$isDuplicate<Value: AnyObject>(_ old: Value?, _ new: Value?) -> Bool { old === new }

/// Used by the `@Observed` macro; do not call directly.
@_documentation(visibility: private)
@inlinable
public func _$isDuplicate<Value: AnyObject & Equatable>(_ old: Value?, _ new: Value?) -> Bool { old == new }

/// Used by the `@Observed` macro; do not call directly.
@_documentation(visibility: private)
@available(*, unavailable, message: "'@Observed(skipsEqualValues: true)' needs an Equatable value or a class reference")
public func _$isDuplicate<Value>(_ old: Value, _ new: Value) -> Bool { false }
