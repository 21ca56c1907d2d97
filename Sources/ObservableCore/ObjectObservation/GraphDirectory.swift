/// The observed graphs that live, by number: how a change's `ChangeLocation`, a value, finds its
/// graph when its path is read, and finds none once the graph has ended.
enum GraphDirectory {
    private final class Entry {
        weak var graph: (any PathFinding)?

        init(_ graph: any PathFinding) {
            self.graph = graph
        }
    }

    /// Guarded by `lock`; numbers are never reused, so a change of an ended graph finds nothing.
    nonisolated(unsafe) private static var entries: [UInt64: Entry] = [:]
    nonisolated(unsafe) private static var lastNumber: UInt64 = 0
    private static let lock = Lock()

    /// Enters `graph`; returns its number.
    static func enter(_ graph: any PathFinding) -> UInt64 {
        let entry = Entry(graph)
        return lock.withLock {
            lastNumber += 1
            entries[lastNumber] = entry
            return lastNumber
        }
    }

    /// Takes the graph numbered `number` out, as it ends.
    static func leave(_ number: UInt64) {
        let entry = lock.withLock { entries.removeValue(forKey: number) }
        withExtendedLifetime(entry) {}
    }

    /// The graph numbered `number`, while it lives.
    static func graph(numbered number: UInt64) -> (any PathFinding)? {
        lock.withLock { entries[number] }?.graph
    }
}

/// What finds the path to a node of a graph (`GraphObservation`).
protocol PathFinding: AnyObject, Sendable {
    /// The graph's root, while it lives.
    var root: AnyObject? { get }

    /// `pages[2].title`: the ways from the root to the property `name` of the node `id`: the first
    /// found, or every one.
    func steps(to id: ObjectIdentifier, property name: String, every: Bool) -> [[PathStep]]
}
