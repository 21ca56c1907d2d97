/// One change of a path's dependency, between its `willChange` and its `didChange`: the link it
/// came through (`nil`: announced by hand) and the set's stamp (`ObserverList.stamp`), which the two
/// calls of one change share.
struct PendingChange: Hashable {
    let source: ObjectIdentifier?
    let stamp: Int
}

/// A path observation's changes in flight: counted from `willChange` to `didChange` (a proven leaf
/// trusts the setter only while none is, see `PathLink`), with the path's old value taken at
/// `willChange` when the path asked for old values. Kept by change, so that a nested change pairs
/// with its own old value and a link detached in between takes its changes with it, never handing
/// them to another.
///
/// Not generic (a type nested in the generic `PathObservation` would be, its metadata looked up at
/// every change): an old value is a `ValueBox` the path made; whoever takes a box out takes its
/// value or destroys it, after the path's lock.
struct PendingChanges {
    private var counts: [PendingChange: Int] = [:]
    private var oldValues: [(change: PendingChange, box: ValueBox)] = []
    /// The changes counted, for the path's lock-free mirror of it.
    private(set) var inFlight = 0

    var isEmpty: Bool { inFlight == 0 }

    mutating func begin(_ change: PendingChange) {
        counts[change, default: 0] += 1
        inFlight += 1
    }

    mutating func recordOldValue(_ box: ValueBox, for change: PendingChange) {
        oldValues.append((change, box))
    }

    /// Ends `change`: its count, and its old value if one was recorded.
    mutating func finish(_ change: PendingChange) -> ValueBox? {
        if let count = counts[change] {
            counts[change] = count > 1 ? count - 1 : nil
            inFlight -= 1
        }
        return oldValues.lastIndex { $0.change == change }.map { oldValues.remove(at: $0).box }
    }

    /// Drops the changes that came through `sources` (links that are going): their old values.
    mutating func forget(_ sources: [ObjectIdentifier]) -> [ValueBox] {
        for (change, count) in counts {
            guard let source = change.source, sources.contains(source) else { continue }
            counts[change] = nil
            inFlight -= count
        }
        var dropped: [ValueBox] = []
        oldValues.removeAll { pending in
            guard let source = pending.change.source, sources.contains(source) else { return false }
            dropped.append(pending.box)
            return true
        }
        return dropped
    }

    /// Drops everything: the old values.
    mutating func removeAll() -> [ValueBox] {
        defer { self = PendingChanges() }
        return oldValues.map(\.box)
    }
}
