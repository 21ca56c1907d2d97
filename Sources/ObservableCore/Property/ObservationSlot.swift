import Synchronization

/// The one type the `@Observed` macro's expansion uses: the slot it declares next to a property's
/// storage, and the calls its accessors make. Do not call; used by the macro's expansion.
///
/// ```swift
/// get {
///     if ObservableCore.ObservationSlot.isTracking {
///         _$name.access(self) { (\.name, chained: \.?.name, stored: { $0._name }) }
///     }
///     return _name
/// }
/// set {
///     guard _$name.isObserved else { _name = newValue; return }
///     let change = _$name.willSet(self, _name) { \.name }
///     _name = newValue
///     _$name.didSet(self, change, _name)
/// }
/// _modify {
///     let change = _$name.willSetIfObserved(self, _name) { \.name }
///     defer { _$name.didMutate(self, change, _name) }
///     yield &_name
/// }
/// ```
///
/// One pointer per instance and property: the property's `ListSlot` (`nil` until the property is
/// first observed on this instance, then its observer list, ended with the instance).
@_documentation(visibility: internal)
public struct ObservationSlot: ~Copyable, @unchecked Sendable {
    @usableFromInline
    let slot: ListSlot

    public init() {
        slot = ListSlot()
    }

    /// `true` while some thread is resolving a key path: only then does a getter call `access`.
    @inlinable
    public static var isTracking: Bool {
        _trackingIsActive()
    }

    /// `true` once the property has been observed on this instance. The setter's fast path.
    @inlinable
    public var isObserved: Bool {
        _listAddress() != nil
    }

    /// The list's address, or `nil`: the setter's test. Out of line and `readonly` rather than an
    /// inline atomic load: Swift's ARC optimiser treats an atomic instruction as a barrier and would
    /// retain and release the object around every set; a `readonly` call is no barrier, and cannot be
    /// moved across the writes or calls that register an observation, so a set after `observe` always
    /// sees it. Returns the address rather than a `Bool` so that it is one load (the caller tests it).
    /// (The three optimiser contracts together: Design.md, "Optimiser contracts".)
    @usableFromInline
    @_effects(readonly) @inline(never)
    func _listAddress() -> UnsafeRawPointer? {
        slot.list.load(ordering: .relaxed).map { UnsafeRawPointer($0.toOpaque()) }
    }

    /// Reports a read of the property to the current thread's tracking frame, if there is one.
    ///
    /// The getter passes its key paths in a closure (`{ (\.name, \.?.name) }`), so that it forms
    /// nothing and calls nothing else on its slow path: with a single call here, and `releasenone`
    /// telling the optimiser that no object a caller might hold is released by it, a getter needs no
    /// retain and release of its object around the check. That holds: this retains the object and the
    /// key paths into the frame, may create the property's list, and releases only a list it just
    /// created and lost a race to install.
    ///
    /// The second key path is the same property reached through an optional chain
    /// (`\Class?.?.name`): with it, and the wrapping function (a constant specialised here, for the
    /// property's type), a path proven to end in this property delivers the setter's values (see
    /// `PathProof`). Both come from one closure so that a getter carries one closure, not two, for
    /// the compiler to check and emit. An override's getter, which has no storage of its own, calls
    /// this form; every other getter also hands over its storage reader (the overload below).
    @inlinable @inline(__always)
    public func access<Object: AnyObject, Value>(
        _ object: Object, _ keyPaths: () -> (KeyPath<Object, Value>, chained: KeyPath<Object?, Value?>)
    ) {
        access(object, storedStrongly: true, keyPaths)
    }

    /// `access` with the property's storage reader (`stored: { $0._name }`): a path proven to pass
    /// through the property reads it that way at each re-wire (`StoredPath`), not through its key path.
    /// The reader is made only when an evaluation collects readers, once per proven path.
    @inlinable @inline(__always)
    public func access<Object: AnyObject, Value>(
        _ object: Object,
        _ accessors: () -> (KeyPath<Object, Value>, chained: KeyPath<Object?, Value?>, stored: (Object) -> Value)
    ) {
        access(
            erased: object,
            {
                let accessors = accessors()
                return (accessors.0, accessors.chained)
            },
            offersStoredValueReader: true, stored: { StoredValueReader(accessors().stored) },
            wrap: { value, optional in
                value.initializeOptional(at: optional, as: Value.self)
            })
    }

    /// The form of `access` the expansion used for `weak` and `unowned` storage before getters handed
    /// over their storage reader; `storedStrongly` no longer changes anything.
    @inlinable @inline(__always)
    public func access<Object: AnyObject, Value>(
        _ object: Object, storedStrongly: Bool,
        _ keyPaths: () -> (KeyPath<Object, Value>, chained: KeyPath<Object?, Value?>)
    ) {
        // Non-generic below, so the slow path needs no type metadata (another call) either.
        access(
            erased: object, { keyPaths() }, offersStoredValueReader: false, stored: { nil },
            wrap: { value, optional in
                value.initializeOptional(at: optional, as: Value.self)
            })
    }

    /// The form of `access` the expansion used before its key paths came in one closure.
    @inlinable @inline(__always)
    public func access<Object: AnyObject, Value>(
        _ object: Object, _ keyPath: () -> KeyPath<Object, Value>, chained: () -> KeyPath<Object?, Value?>
    ) {
        access(object, storedStrongly: true) { (keyPath(), chained: chained()) }
    }

    /// The form of `access(_:storedStrongly:_:)` the expansion used before its key paths came in one
    /// closure.
    @inlinable @inline(__always)
    public func access<Object: AnyObject, Value>(
        _ object: Object, storedStrongly: Bool, _ keyPath: () -> KeyPath<Object, Value>,
        chained: () -> KeyPath<Object?, Value?>
    ) {
        access(object, storedStrongly: storedStrongly) { (keyPath(), chained: chained()) }
    }

    /// `stored` is called only by an evaluation that collects readers (`Tracking.storedValueReaders`);
    /// without one (`offersStoredValueReader: false`), a path through the property is evaluated at
    /// each re-wire.
    @usableFromInline
    @_effects(releasenone)
    func access(
        erased object: AnyObject, _ keyPaths: () -> (AnyKeyPath, chained: AnyKeyPath),
        offersStoredValueReader: Bool, stored: () -> StoredValueReader?, wrap: @escaping LeafWrap
    ) {
        guard let frame = TrackingFrame.current else { return }
        let observers = slot.observers()
        let (keyPath, chained) = keyPaths()
        frame.record(
            object, observers, keyPath,
            property: TrackedProperty(
                chained: chained, wrap: wrap, slotOffset: slot.offset(in: object),
                offersStoredValueReader: offersStoredValueReader),
            stored: stored)
    }

    // A noncopyable property type gets these instead, so that the build fails saying why. (The
    // key paths of the getter and the setter, which Swift refuses for a noncopyable type, add the
    // compiler's own errors.)
    @available(*, unavailable, message: "'@Observed' requires a copyable type")
    public func willSet<Object: AnyObject, Value: ~Copyable>(
        _ object: Object, _ oldValue: borrowing Value, _ keyPath: () -> PartialKeyPath<Object>
    ) -> PendingChange<Int>? {
        nil
    }
    @available(*, unavailable, message: "'@Observed' requires a copyable type")
    public func didSet<Object: AnyObject, Value: ~Copyable, Change>(
        _ object: Object, _ change: Change, _ newValue: borrowing Value
    ) {}
    @available(*, unavailable, message: "'@Observed' requires a copyable type")
    public func didMutate<Object: AnyObject, Value: ~Copyable, Change>(
        _ object: Object, _ change: Change, _ newValue: borrowing Value
    ) {}

    /// Before the store: delivers `.prior` notifications and snapshots who gets the one after it.
    /// Returns `nil` when nobody observes the property. Specialised in the caller's module.
    ///
    /// `keyPath` names the property (`{ \.name }`), formed in the setter, where forming it is
    /// allowed whatever the class's isolation; it is called only when an observation of the whole
    /// object waits to learn it (see `ObservedPropertyKey`).
    @inlinable
    public func willSet<Object: AnyObject, Value>(
        _ object: Object, _ oldValue: Value, _ keyPath: () -> KeyPath<Object, Value>
    ) -> PendingChange<Value>? {
        guard let snapshot = snapshot() else { return nil }
        if snapshot.notifiesWillChange { snapshot.deliverWillChange(object, oldValue: oldValue, keyPath) }
        return PendingChange(snapshot: snapshot, oldValue: oldValue)
    }

    /// `willSet` for a `_modify` that does not test `isObserved` itself (that of a class that does not
    /// report to Observation): the test, inlined, then `willSet`. One `yield` rather than one on each
    /// side of a `guard`: Swift then inlines the coroutine where it is used instead of allocating its
    /// frame, and the compiler has less to check.
    @inlinable @inline(__always)
    public func willSetIfObserved<Object: AnyObject, Value>(
        _ object: Object, _ oldValue: Value, _ keyPath: () -> KeyPath<Object, Value>
    ) -> PendingChange<Value>? {
        guard isObserved else { return nil }
        return willSet(object, oldValue, keyPath)
    }

    /// After the store: delivers the notification to the observers snapshotted by `willSet`.
    @inlinable
    public func didSet<Object: AnyObject, Value>(_ object: Object, _ change: PendingChange<Value>?, _ newValue: Value) {
        guard let change else { return }
        change.snapshot.deliverDidChange(object, oldValue: change.oldValue, newValue: newValue, nil)
    }

    /// After an in-place mutation (`_modify`): for most values the same as `didSet`. The overloads
    /// below, chosen at compile time for collections, also say what the mutation did. Each is inlined
    /// whole (a test of `nil`, then a call), so that an unobserved `_modify` makes no call.
    @inlinable @inline(__always)
    public func didMutate<Object: AnyObject, Value>(
        _ object: Object, _ change: PendingChange<Value>?, _ newValue: Value
    ) {
        guard change != nil else { return }
        didSet(object, change, newValue)
    }

    /// After an in-place mutation of a collection of `Equatable` elements: an insertion, removal or
    /// replacement with its indexes, found by comparing the old and new values (only when observed).
    @inlinable @inline(__always)
    public func didMutate<Object: AnyObject, C: RandomAccessCollection & RangeReplaceableCollection>(
        _ object: Object, _ change: PendingChange<C>?, _ newValue: C
    ) where C.Element: Equatable {
        guard let change else { return }
        didMutate(object, change, newValue, same: ==)
    }

    /// After an in-place mutation of a collection of class references, compared by identity.
    @inlinable @inline(__always)
    public func didMutate<Object: AnyObject, C: RandomAccessCollection & RangeReplaceableCollection>(
        _ object: Object, _ change: PendingChange<C>?, _ newValue: C
    ) where C.Element: AnyObject {
        guard let change else { return }
        didMutate(object, change, newValue, same: ===)
    }

    /// Both of the above apply to `Equatable` classes: their `==` decides.
    @inlinable @inline(__always)
    public func didMutate<Object: AnyObject, C: RandomAccessCollection & RangeReplaceableCollection>(
        _ object: Object, _ change: PendingChange<C>?, _ newValue: C
    ) where C.Element: AnyObject, C.Element: Equatable {
        guard let change else { return }
        didMutate(object, change, newValue, same: ==)
    }

    /// After an in-place mutation of a property whose type the macro saw as a generic parameter (or
    /// built from one): the overloads above are chosen at compile time, where such a type matches
    /// none of them, so the collection kinds are found at run time instead (only when observed).
    @inlinable @inline(__always)
    public func didMutateGeneric<Object: AnyObject, Value>(
        _ object: Object, _ change: PendingChange<Value>?, _ newValue: Value
    ) {
        guard let change else { return }
        change.snapshot.deliverDidChange(
            object, oldValue: change.oldValue, newValue: newValue,
            CollectionMutation.detected(from: change.oldValue, to: newValue))
    }

    /// The collection overloads' common body, once they know someone observes: compares old and new
    /// with `same`.
    @inlinable
    func didMutate<Object: AnyObject, C: RandomAccessCollection>(
        _ object: Object, _ change: PendingChange<C>, _ newValue: C, same: (C.Element, C.Element) -> Bool
    ) {
        change.snapshot.deliverDidChange(
            object, oldValue: change.oldValue, newValue: newValue,
            CollectionMutation(from: change.oldValue, to: newValue, same: same))
    }

    /// `@inlinable`, with the delivery loop and the end of the read, so that the optimiser may inline
    /// them into the setter's slow path, where calls would cost most of a one-observer set. The fast
    /// path (`_listAddress`) stays an out-of-line `readonly` call.
    @inlinable
    func snapshot() -> SetSnapshot? {
        // The slot owns the list for as long as the instance lives, and the setter holds the instance:
        // no retain and release of the list around the call.
        slot.list.load(ordering: .acquiring)?._withUnsafeGuaranteedRef { $0.snapshot() }
    }

    // `@Observed(skipsEqualValues: true)`: whether a set would store what is already there. Overloads
    // chosen at compile time: `==` for `Equatable` values (optionals included), identity for class
    // references; a value that is neither is a compile-time error naming the requirement.

    @inlinable
    public static func isDuplicate<Value: Equatable>(_ old: Value, _ new: Value) -> Bool { old == new }

    @inlinable
    public static func isDuplicate<Value: AnyObject>(_ old: Value, _ new: Value) -> Bool { old === new }

    @inlinable
    public static func isDuplicate<Value: AnyObject & Equatable>(_ old: Value, _ new: Value) -> Bool { old == new }

    @inlinable
    public static func isDuplicate<Value: AnyObject>(_ old: Value?, _ new: Value?) -> Bool { old === new }

    @inlinable
    public static func isDuplicate<Value: AnyObject & Equatable>(_ old: Value?, _ new: Value?) -> Bool { old == new }

    @available(
        *, unavailable, message: "'@Observed(skipsEqualValues: true)' needs an Equatable value or a class reference"
    )
    public static func isDuplicate<Value>(_ old: Value, _ new: Value) -> Bool { false }
}

extension ObservationSlot {
    /// What `willSet` captures before the store: who is notified after it, and the old value.
    public struct PendingChange<Value> {
        @usableFromInline let snapshot: SetSnapshot
        @usableFromInline let oldValue: Value

        @inlinable
        init(snapshot: SetSnapshot, oldValue: Value) {
            self.snapshot = snapshot
            self.oldValue = oldValue
        }
    }
}

/// The type the expansion declares a slot with: the slot itself, under a name that says what to do.
/// The compiler names it when it cannot synthesise `Codable` for a class because of the slot (the
/// conformance declared in an extension, which no macro sees, or no `@KeyValueObservable` to write
/// it): "cannot automatically synthesize 'Decodable' because
/// 'ObservationSlot_ForCodableAddKeyValueObservableAndDeclareCodableOnTheClass' does not conform".
@_documentation(visibility: internal)
public typealias ObservationSlot_ForCodableAddKeyValueObservableAndDeclareCodableOnTheClass = ObservationSlot
