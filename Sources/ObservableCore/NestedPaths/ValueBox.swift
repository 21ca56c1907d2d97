import Synchronization

/// A path's value in a heap cell, type-erased: an old value from `willChange` to `didChange`, or a
/// re-evaluated new value while it is delivered. Assumes each box is taken or destroyed once, as its
/// type (by `destroy`, or in place by code of that type before `giveBackDestroyed`), and that a
/// `SpareCells` only ever holds cells of one type (a plan's value type). Proved by `NestedPathTests`,
/// `ReentrancyTests` and `ValueBoxTests` (ASan, LSan).
struct ValueBox {
    /// Where the value is, for code of its type that destroys it in place (then `giveBackDestroyed`).
    let address: UnsafeMutableRawPointer

    /// A box of `value`, in a cell of `spare` if it has one.
    init<Value>(_ value: Value, in spare: borrowing SpareCells) {
        address = spare.take(for: Value.self)
        address.initializeMemory(as: Value.self, to: value)
    }

    /// A box of a `Value` that `initialize` writes in place, in a cell of `spare` if it has one.
    init<Value>(
        of _: Value.Type, in spare: borrowing SpareCells, initializingWith initialize: (UnsafeMutableRawPointer) -> Void
    ) {
        address = spare.take(for: Value.self)
        initialize(address)
    }

    /// The value, lent in place (until the box is taken or destroyed).
    var borrowed: BorrowedValue { BorrowedValue(address: address) }

    /// Destroys the value and gives its cell back to `spare` (or frees it).
    func destroy<Value>(as _: Value.Type, into spare: borrowing SpareCells) {
        address.assumingMemoryBound(to: Value.self).deinitialize(count: 1)
        spare.giveBack(address)
    }

    /// Gives the cell back to `spare` once code of the value's type has destroyed the value.
    func giveBackDestroyed(into spare: borrowing SpareCells) {
        spare.giveBack(address)
    }
}

/// Two heap cells kept, by the plan every observation of a path shares, for the next boxes of its
/// value type: a re-wire boxes the old value and reads the new one without allocating. Taken and
/// given back with atomics (a cell is in the spare or in one box, never both); a cell given back
/// to a full spare is freed, and a spare that ends frees what it holds.
struct SpareCells: ~Copyable, @unchecked Sendable {
    private let first = Atomic<UnsafeMutableRawPointer?>(nil)
    private let second = Atomic<UnsafeMutableRawPointer?>(nil)

    init() {}

    deinit {
        first.load(ordering: .acquiring)?.deallocate()
        second.load(ordering: .acquiring)?.deallocate()
    }

    /// A cell for a `Value`: a spare one, or a new one.
    func take<Value>(for _: Value.Type) -> UnsafeMutableRawPointer {
        if let cell = first.exchange(nil, ordering: .acquiring) ?? second.exchange(nil, ordering: .acquiring) {
            return cell
        }
        return UnsafeMutableRawPointer(UnsafeMutablePointer<Value>.allocate(capacity: 1))
    }

    /// Keeps `cell`, uninitialised, for the next box; frees it when both places are taken.
    func giveBack(_ cell: UnsafeMutableRawPointer) {
        if first.compareExchange(expected: nil, desired: cell, successOrdering: .releasing, failureOrdering: .relaxed)
            .exchanged
            || second.compareExchange(
                expected: nil, desired: cell, successOrdering: .releasing, failureOrdering: .relaxed
            ).exchanged
        {
            return
        }
        cell.deallocate()
    }
}
