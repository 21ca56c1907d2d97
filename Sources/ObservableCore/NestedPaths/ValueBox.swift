/// A path's old value on the heap, type-erased. Assumes each box is taken or destroyed once, as its
/// type. Proved by `NestedPathTests` and `ReentrancyTests` (ASan, LSan).
struct ValueBox {
    private let address: UnsafeMutableRawPointer

    init<Value>(_ value: Value) {
        let box = UnsafeMutablePointer<Value>.allocate(capacity: 1)
        box.initialize(to: value)
        address = UnsafeMutableRawPointer(box)
    }

    /// A box of a `Value` that `initialize` writes in place.
    init<Value>(of _: Value.Type, initializingWith initialize: (UnsafeMutableRawPointer) -> Void) {
        address = UnsafeMutableRawPointer(UnsafeMutablePointer<Value>.allocate(capacity: 1))
        initialize(address)
    }

    /// The value, lent in place (until the box is taken or destroyed).
    var borrowed: BorrowedValue { BorrowedValue(address: address) }

    /// The value, moved out; the box is freed.
    func take<Value>(as _: Value.Type) -> Value {
        defer { address.deallocate() }
        return address.assumingMemoryBound(to: Value.self).move()
    }

    /// Destroys the value and frees the box.
    func destroy<Value>(as _: Value.Type) {
        address.assumingMemoryBound(to: Value.self).deinitialize(count: 1)
        address.deallocate()
    }
}
