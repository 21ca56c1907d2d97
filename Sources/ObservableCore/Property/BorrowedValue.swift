/// A value lent by address with its type erased, so a set hands values to non-generic entries
/// without boxing. Assumes it is read only during the call, as the type it was lent as (a slot's
/// list hears one property). Proved by `ObserverSemanticsTests` and `ProofEquivalenceTests` (ASan).
@usableFromInline @frozen
struct BorrowedValue {
    @usableFromInline let address: UnsafeRawPointer

    @inlinable @inline(__always)
    init(address: UnsafeRawPointer) {
        self.address = address
    }

    /// Calls `body` with `value` lent.
    @inlinable @inline(__always)
    static func lend<Value, Result>(_ value: Value, to body: (BorrowedValue) -> Result) -> Result {
        withUnsafePointer(to: value) { body(BorrowedValue(address: UnsafeRawPointer($0))) }
    }

    /// The value, read as the type it was lent as.
    @inlinable @inline(__always)
    func read<Value>(as _: Value.Type) -> Value {
        address.assumingMemoryBound(to: Value.self).pointee
    }

    /// Initialises `destination`, uninitialised memory for a `Value?`, with the value made optional:
    /// the body of a slot's `LeafWrap`.
    @inlinable @inline(__always)
    func initializeOptional<Value>(at destination: UnsafeMutableRawPointer, as _: Value.Type) {
        destination.initializeMemory(as: Value?.self, to: .some(read(as: Value.self)))
    }

    /// The value converted by `wrap` to `Target` (the value made optional, see `LeafWrap`).
    @inlinable
    func converted<Target>(by wrap: LeafWrap, to _: Target.Type) -> Target {
        withUnsafeTemporaryAllocation(of: Target.self, capacity: 1) { buffer in
            let target = buffer.baseAddress.unsafelyUnwrapped
            wrap(self, UnsafeMutableRawPointer(target))
            return target.move()
        }
    }

    /// Calls `body` with `old` and `new` converted by `wrap` to `Target`, lent from temporary storage.
    @inlinable
    static func converting<Target>(
        _ old: BorrowedValue, _ new: BorrowedValue, by wrap: LeafWrap, to _: Target.Type,
        _ body: (BorrowedValue, BorrowedValue) -> Void
    ) {
        withUnsafeTemporaryAllocation(of: Target.self, capacity: 2) { values in
            let base = values.baseAddress.unsafelyUnwrapped
            wrap(old, UnsafeMutableRawPointer(base))
            wrap(new, UnsafeMutableRawPointer(base + 1))
            body(BorrowedValue(address: base), BorrowedValue(address: base + 1))
            base.deinitialize(count: 2)
        }
    }
}

/// Initialises an `Optional<Value>` at the address from the borrowed `Value`.
@usableFromInline
typealias LeafWrap = (BorrowedValue, UnsafeMutableRawPointer) -> Void

/// The `LeafWrap` passed where a function is needed and no conversion applies (never called).
func noLeafWrap(_: BorrowedValue, _: UnsafeMutableRawPointer) {}
