import Synchronization

/// The one type the `@Observed` macro's expansion uses: the slot it declares next to a property's
/// storage, and the calls its accessors make (the golden tests show them). Do not call.
/// One pointer per instance and property: `nil` until the property is first observed.
@_documentation(visibility: internal)
public struct ObservationSlot: ~Copyable, @unchecked Sendable {
    @usableFromInline
    let slot: ListSlot

    public init() {
        slot = ListSlot()
    }

    @inlinable
    public var isObserved: Bool {
        _listAddress() != nil
    }

    /// Out of line and `readonly`, not an inline atomic load, which ARC treats as a barrier (a retain
    /// and release per set). CONTRIBUTING.md, "Unsafe code".
    @usableFromInline
    @_effects(readonly) @inline(never)
    func _listAddress() -> UnsafeRawPointer? {
        slot.list.load(ordering: .relaxed).map { UnsafeRawPointer($0.toOpaque()) }
    }

    // A noncopyable property type gets these, so that the build fails saying why.
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

    /// Before the store: delivers `.prior` notifications and snapshots who gets the one after it;
    /// `nil` when nobody observes. `keyPath` is formed only for a whole-object observation.
    @inlinable
    public func willSet<Object: AnyObject, Value>(
        _ object: Object, _ oldValue: Value, _ keyPath: () -> KeyPath<Object, Value>
    ) -> PendingChange<Value>? {
        guard let snapshot = snapshot() else { return nil }
        if snapshot.notifiesWillChange { snapshot.deliverWillChange(object, oldValue: oldValue, keyPath) }
        return PendingChange(snapshot: snapshot, oldValue: oldValue)
    }

    /// The test, then `willSet`: a `_modify` with one `yield`, which Swift inlines without a frame.
    @inlinable @inline(__always)
    public func willSetIfObserved<Object: AnyObject, Value>(
        _ object: Object, _ oldValue: Value, _ keyPath: () -> KeyPath<Object, Value>
    ) -> PendingChange<Value>? {
        guard isObserved else { return nil }
        return willSet(object, oldValue, keyPath)
    }

    @inlinable
    public func didSet<Object: AnyObject, Value>(_ object: Object, _ change: PendingChange<Value>?, _ newValue: Value) {
        guard let change else { return }
        change.snapshot.deliverDidChange(object, oldValue: change.oldValue, newValue: newValue, nil)
    }

    /// After an in-place mutation: `didSet`, or for a collection (the overloads below) also what the
    /// mutation did. Inlined, so an unobserved `_modify` makes no call.
    @inlinable @inline(__always)
    public func didMutate<Object: AnyObject, Value>(
        _ object: Object, _ change: PendingChange<Value>?, _ newValue: Value
    ) {
        guard change != nil else { return }
        didSet(object, change, newValue)
    }

    @inlinable @inline(__always)
    public func didMutate<Object: AnyObject, C: RandomAccessCollection & RangeReplaceableCollection>(
        _ object: Object, _ change: PendingChange<C>?, _ newValue: C
    ) where C.Element: Equatable {
        guard let change else { return }
        didMutate(object, change, newValue, same: ==)
    }

    @inlinable @inline(__always)
    public func didMutate<Object: AnyObject, C: RandomAccessCollection & RangeReplaceableCollection>(
        _ object: Object, _ change: PendingChange<C>?, _ newValue: C
    ) where C.Element: AnyObject {
        guard let change else { return }
        didMutate(object, change, newValue, same: ===)
    }

    /// For `Equatable` classes, `==` decides.
    @inlinable @inline(__always)
    public func didMutate<Object: AnyObject, C: RandomAccessCollection & RangeReplaceableCollection>(
        _ object: Object, _ change: PendingChange<C>?, _ newValue: C
    ) where C.Element: AnyObject, C.Element: Equatable {
        guard let change else { return }
        didMutate(object, change, newValue, same: ==)
    }

    /// A type the macro saw as generic, which no overload above matches: the kind found at run time.
    @inlinable @inline(__always)
    public func didMutateGeneric<Object: AnyObject, Value>(
        _ object: Object, _ change: PendingChange<Value>?, _ newValue: Value
    ) {
        guard let change else { return }
        change.snapshot.deliverDidChange(
            object, oldValue: change.oldValue, newValue: newValue,
            CollectionMutation.detected(from: change.oldValue, to: newValue))
    }

    @inlinable
    func didMutate<Object: AnyObject, C: RandomAccessCollection>(
        _ object: Object, _ change: PendingChange<C>, _ newValue: C, same: (C.Element, C.Element) -> Bool
    ) {
        change.snapshot.deliverDidChange(
            object, oldValue: change.oldValue, newValue: newValue,
            CollectionMutation(from: change.oldValue, to: newValue, same: same))
    }

    @inlinable
    func snapshot() -> SetSnapshot? {
        // The slot owns the list while the instance lives, and the setter holds the instance.
        slot.list.load(ordering: .acquiring)?._withUnsafeGuaranteedRef { $0.snapshot() }
    }

    // `@Observed(skipsEqualValues: true)`: `==` for `Equatable` values, identity for references.

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

/// The slot under a name that says what to do when the compiler cannot synthesise `Codable` for a
/// class because of it ("… because 'ObservationSlot_ForCodable…' does not conform").
@_documentation(visibility: internal)
public typealias ObservationSlot_ForCodableAddKeyValueObservableAndDeclareCodableOnTheClass = ObservationSlot

// What a set runs: the entries it notifies, and how it calls them.
extension ObserverList {
    /// The entries a set notifies, or `nil` when there are none. A non-`nil` snapshot must be ended,
    /// by `ObservationSlot.SetSnapshot.deliverDidChange`.
    @inlinable
    func snapshot() -> ObservationSlot.SetSnapshot? {
        if liveCount.load(ordering: .relaxed) == 0 { return nil }
        let (table, stamp) = beginRead()
        return ObservationSlot.SetSnapshot(
            list: Unmanaged.passUnretained(self), run: table.run(stamp: stamp),
            notifiesWillChange: willChangeCount.load(ordering: .acquiring) > 0)
    }
}

/// The delivery loops: how a set calls the entries of its snapshot.
extension ObserverList.EntryRun {
    @usableFromInline
    func deliverWillChange(_ object: AnyObject, _ oldValue: BorrowedValue) {
        for index in 0..<count {
            slots[index]?._withUnsafeGuaranteedRef { entry in
                if entry.wantsWillChange { entry.notify(entry, object, oldValue, nil, nil, stamp) }
            }
        }
    }

    /// `deliverWillChange` for a value of the property's type. Specialised in the caller's module.
    @inlinable
    func deliverWillChange<Value>(_ object: AnyObject, oldValue: Value) {
        BorrowedValue.lend(oldValue) { deliverWillChange(object, $0) }
    }

    /// Delivers the change after the store, inlined in the setter; entries are kept alive by the
    /// reader count, not retained. Default-options observations through `Object` share one change,
    /// built at the first and handed to their handlers from here; the rest get `notify`, in order.
    @inlinable
    func deliverDidChange<Object: AnyObject, Value>(
        _ object: Object, oldValue: Value, newValue: Value, _ mutation: CollectionMutation?
    ) {
        typealias Sharing = DefaultOptionsObservation<Object, Value>
        let sharing = Sharing.identity
        BorrowedValue.lend(oldValue) { old in
            BorrowedValue.lend(newValue) { new in
                var index = 0
                // Up to the first entry that shares the change.
                while index < count {
                    if let entry = slots[index] {
                        if entry._withUnsafeGuaranteedRef({ Sharing.sharesChange($0, identity: sharing) }) { break }
                        entry._withUnsafeGuaranteedRef { $0.notify($0, object, old, new, mutation, stamp) }
                    }
                    index += 1
                }
                guard index < count else { return }
                // The first one, just tested: the change is built with its key path.
                var change = slots[index].unsafelyUnwrapped._withUnsafeGuaranteedRef { entry in
                    Sharing.deliverFirst(to: entry, object, oldValue: oldValue, newValue: newValue, mutation)
                }
                // The rest, walked by address: kept in registers across the calls.
                let end = slots + count
                var slot = slots + index + 1
                while slot < end {
                    slot.pointee?._withUnsafeGuaranteedRef { entry in
                        // Ended ones go to `notify`, which does nothing for them.
                        if Sharing.sharesChange(entry, identity: sharing) {
                            Sharing.deliver(&change, to: entry, object)
                        } else {
                            entry.notify(entry, object, old, new, mutation, stamp)
                        }
                    }
                    slot += 1
                }
            }
        }
    }
}

extension ObservationSlot {
    /// Who is notified of one change: the entries registered when the set began, kept alive and in
    /// place by the set's read of the list until `deliverDidChange` ends it.
    @usableFromInline
    struct SetSnapshot {
        @usableFromInline let list: Unmanaged<ObserverList>
        @usableFromInline let run: ObserverList.EntryRun
        @usableFromInline let notifiesWillChange: Bool

        @inlinable
        init(list: Unmanaged<ObserverList>, run: ObserverList.EntryRun, notifiesWillChange: Bool) {
            self.list = list
            self.run = run
            self.notifiesWillChange = notifiesWillChange
        }

        /// Delivers `.prior` to the entries that asked for it, after teaching the list the property's
        /// key if an entry waits for it. Specialised in the caller's module.
        @inlinable
        func deliverWillChange<Object: AnyObject, Value>(
            _ object: Object, oldValue: Value, _ keyPath: () -> KeyPath<Object, Value>
        ) {
            list._withUnsafeGuaranteedRef { list in
                if list.awaitsPropertyKey { list.learn(TypedObservedPropertyKey(keyPath())) }
            }
            run.deliverWillChange(object, oldValue: oldValue)
        }

        /// Delivers the change after the store, then ends the snapshot: call it exactly once.
        /// Specialised in the caller's module.
        @inlinable
        func deliverDidChange<Object: AnyObject, Value>(
            _ object: Object, oldValue: Value, newValue: Value, _ mutation: CollectionMutation?
        ) {
            run.deliverDidChange(object, oldValue: oldValue, newValue: newValue, mutation)
            list._withUnsafeGuaranteedRef { $0.endRead() }
        }
    }
}
