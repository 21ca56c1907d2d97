/// One change of a path's dependency: the link it came through (`nil`: by hand) and the set's stamp.
struct ChangeInFlight: Equatable {
    let source: ObjectIdentifier?
    let stamp: Int
}

/// A path observation's changes in flight, from `willChange` to `didChange`, with the path's old
/// value taken at `willChange`; kept by change, so a nested change pairs with its own old value.
/// Not generic, so no metadata lookup per change; whoever takes a `ValueBox` out consumes it.
struct ChangesInFlight {
    /// A change in flight with how many times it began, or an old value: one array, one word.
    private struct Record {
        let change: ChangeInFlight
        /// How many times `change` began; `0` in an old value's record.
        var count: Int
        let oldValue: ValueBox?
    }

    /// A few records at most, so searched linearly rather than hashed.
    private var records: [Record] = []

    /// How many changes are in flight (each begun and not finished, counted as often as it began).
    var inFlight: Int {
        var total = 0
        for record in records { total += record.count }
        return total
    }

    var isEmpty: Bool { !records.contains { $0.count > 0 } }

    /// Whether nothing is held: no change counted and no old value.
    var isClear: Bool { records.isEmpty }

    mutating func begin(_ change: ChangeInFlight) {
        if let index = records.firstIndex(where: { $0.count > 0 && $0.change == change }) {
            records[index].count += 1
        } else {
            records.append(Record(change: change, count: 1, oldValue: nil))
        }
    }

    mutating func recordOldValue(_ box: ValueBox, for change: ChangeInFlight) {
        records.append(Record(change: change, count: 0, oldValue: box))
    }

    /// Ends `change`: its count, and its latest old value if one was recorded.
    mutating func finish(_ change: ChangeInFlight) -> ValueBox? {
        if let index = records.firstIndex(where: { $0.count > 0 && $0.change == change }) {
            if records[index].count > 1 {
                records[index].count -= 1
            } else {
                records.remove(at: index)
            }
        }
        guard let index = records.lastIndex(where: { $0.oldValue != nil && $0.change == change }) else { return nil }
        return records.remove(at: index).oldValue
    }

    /// Drops the changes that came through `sources` (links that are going): their old values.
    mutating func forget(_ sources: [ObjectIdentifier]) -> [ValueBox] {
        var dropped: [ValueBox] = []
        records.removeAll { record in
            guard let source = record.change.source, sources.contains(source) else { return false }
            if let box = record.oldValue { dropped.append(box) }
            return true
        }
        return dropped
    }

    /// Drops everything: the old values.
    mutating func removeAll() -> [ValueBox] {
        defer { records = [] }
        return records.compactMap(\.oldValue)
    }
}
