import Synchronization

/// `RewireReference` with the one guarantee a path observation owes its handler beyond it: a leaf set
/// heard while the intermediate object is being replaced is delivered from the path's value, not the
/// leaf's. So the path's old value is read before the store and held, with the change counted in
/// flight, under the observation's own blocking lock; a leaf change heard in flight starts from it;
/// the re-wire ends the change under that lock, then moves the link and reads the new leaf as the plain
/// reference does. The floor of "intermediate replaced" for a library that keeps that guarantee, as
/// ObservableCore's proven paths do (`ProofEquivalenceTests`). Still no key path, no generic value, no
/// allocation once warm, and no run-time exclusivity check.
public enum GuardedRewireReference {
    /// One observation of the path: its handler, its change in flight, and its link in a child's list.
    public final class Observation: ChildLink, @unchecked Sendable {
        let handler: (Int?, Int?) -> Void
        let flight = PathFlight()
        @exclusivity(unchecked) public var index = 0

        init(_ handler: @escaping (Int?, Int?) -> Void) { self.handler = handler }

        public func leafChanged(old: Int, new: Int) {
            handler(flight.from(leafOld: old, new: new), new)
        }
    }

    public typealias Child = LinkedChild<Observation>

    public final class Root: @unchecked Sendable {
        private let paths = Mutex(ContiguousArray<Observation>())

        @exclusivity(unchecked) public var child: Child? {
            willSet { willRewire(from: child) }
            didSet { rewire(from: oldValue, to: child) }
        }

        public init() {}

        public func observePath(_ handler: @escaping (Int?, Int?) -> Void) {
            let observation = Observation(handler)
            paths.withLock { $0.append(observation) }
            child?.observers.insert(observation)
        }

        private func willRewire(from old: Child?) {
            for path in paths.withLock({ $0 }) { path.flight.begin(old: old?.leaf) }
        }

        private func rewire(from old: Child?, to new: Child?) {
            for path in paths.withLock({ $0 }) {
                let from = path.flight.end()
                if old !== new {
                    old?.observers.remove(path)
                    new?.observers.insert(path)
                }
                path.handler(from, new?.leaf)
            }
        }
    }
}
