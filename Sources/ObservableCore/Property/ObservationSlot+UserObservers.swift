extension ObservationSlot {
    /// Stores `newValue` through `write` as Swift stores into a stored property with `willSet` and a
    /// `didSet` that reads the old value: the old value read first, then `willSet`, the store and
    /// `didSet`. The expansion calls it for a storage that `@KeyValueObservable` lists: declared
    /// `nonisolated(unsafe)`, it cannot carry the user's observers, whose bodies must keep the class's
    /// isolation; here they run in the setter's. Do not call; used by the macro's expansion.
    @inlinable @inline(__always)
    public static func store<Value>(
        _ newValue: Value, read: () -> Value, write: (Value) -> Void, willSet: (Value) -> Void = { _ in },
        didSet: (Value) -> Void
    ) {
        let oldValue = read()
        willSet(newValue)
        write(newValue)
        didSet(oldValue)
    }

    /// `store` for a `didSet` that does not read the old value, or none: the old value is not read.
    @inlinable @inline(__always)
    public static func store<Value>(
        _ newValue: Value, write: (Value) -> Void, willSet: (Value) -> Void = { _ in }, didSet: () -> Void = {}
    ) {
        willSet(newValue)
        write(newValue)
        didSet()
    }
}
