/// What a getter reports while a key path is evaluated (`Tracking`): its property's list, key paths,
/// slot and storage reader. The macro's getters call these; do not call.
extension ObservationSlot {
    /// `true` while some thread resolves a key path: only then does a getter call `access`.
    @inlinable
    public static var isTracking: Bool {
        _trackingIsActive()
    }

    /// Reports a read of the property to the current thread's tracking frame, if there is one.
    /// The key paths come in one closure, formed only when tracking; the second is the property
    /// through an optional chain, with which a proven path delivers the setter's values (`PathProof`).
    @inlinable @inline(__always)
    public func access<Object: AnyObject, Value>(
        _ object: Object, _ keyPaths: () -> (KeyPath<Object, Value>, chained: KeyPath<Object?, Value?>)
    ) {
        access(object, storedStrongly: true, keyPaths)
    }

    /// `access` with the property's storage reader, which a proven path reads (`StoredPath`).
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

    /// Kept for expansions of earlier releases; `storedStrongly` no longer changes anything.
    @inlinable @inline(__always)
    public func access<Object: AnyObject, Value>(
        _ object: Object, storedStrongly: Bool,
        _ keyPaths: () -> (KeyPath<Object, Value>, chained: KeyPath<Object?, Value?>)
    ) {
        access(
            erased: object, { keyPaths() }, offersStoredValueReader: false, stored: { nil },
            wrap: { value, optional in
                value.initializeOptional(at: optional, as: Value.self)
            })
    }

    /// Kept for expansions of earlier releases.
    @inlinable @inline(__always)
    public func access<Object: AnyObject, Value>(
        _ object: Object, _ keyPath: () -> KeyPath<Object, Value>, chained: () -> KeyPath<Object?, Value?>
    ) {
        access(object, storedStrongly: true) { (keyPath(), chained: chained()) }
    }

    /// Kept for expansions of earlier releases.
    @inlinable @inline(__always)
    public func access<Object: AnyObject, Value>(
        _ object: Object, storedStrongly: Bool, _ keyPath: () -> KeyPath<Object, Value>,
        chained: () -> KeyPath<Object?, Value?>
    ) {
        access(object, storedStrongly: storedStrongly) { (keyPath(), chained: chained()) }
    }

    /// `releasenone`: retains into the frame, and releases only a list it lost a race to install.
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
}
