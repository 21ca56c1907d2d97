/// One change of a path's dependency, between its `willChange` and its `didChange`: the link it
/// came through (`nil`: announced by hand) and the set's stamp (`ObserverList.stamp`), which the two
/// calls of one change share.
struct PendingChange: Equatable {
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
    /// Each change in flight with how many times it began (a change inside a change may repeat
    /// one); a few at most, so searched linearly rather than hashed.
    private var counts: [(change: PendingChange, count: Int)] = []
    private var oldValues: [(change: PendingChange, box: ValueBox)] = []
    /// The changes counted, for the path's lock-free mirror of it.
    private(set) var inFlight = 0

    var isEmpty: Bool { inFlight == 0 }

    /// Whether nothing is held: no change counted and no old value.
    var isClear: Bool { counts.isEmpty && oldValues.isEmpty }

    mutating func begin(_ change: PendingChange) {
        if let index = counts.firstIndex(where: { $0.change == change }) {
            counts[index].count += 1
        } else {
            counts.append((change, 1))
        }
        inFlight += 1
    }

    mutating func recordOldValue(_ box: ValueBox, for change: PendingChange) {
        oldValues.append((change, box))
    }

    /// Ends `change`: its count, and its old value if one was recorded.
    mutating func finish(_ change: PendingChange) -> ValueBox? {
        if let index = counts.firstIndex(where: { $0.change == change }) {
            if counts[index].count > 1 {
                counts[index].count -= 1
            } else {
                counts.remove(at: index)
            }
            inFlight -= 1
        }
        guard !oldValues.isEmpty else { return nil }
        return oldValues.lastIndex { $0.change == change }.map { oldValues.remove(at: $0).box }
    }

    /// Drops the changes that came through `sources` (links that are going): their old values.
    mutating func forget(_ sources: [ObjectIdentifier]) -> [ValueBox] {
        var forgotten = 0
        counts.removeAll { change, count in
            guard let source = change.source, sources.contains(source) else { return false }
            forgotten += count
            return true
        }
        inFlight -= forgotten
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
