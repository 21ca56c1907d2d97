/// A value moved to the heap with its type erased: a path's old value, kept from a dependency's
/// `willChange` to its `didChange` in storage that is not generic (`ChangesInFlight`).
///
/// Assumes that each box is taken (`take`) or destroyed (`destroy`) exactly once, as the type it
/// was made with: the path observation that made it is the only one that takes it back, after its
/// lock, and its `deinit` destroys what is left. Proved by the old values of `NestedPathTests` and
/// `ReentrancyTests` (a change inside a change, a link detached in between), under AddressSanitizer
/// and its leak check in `.ci/run`.
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
