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
        struct Flight {
            var depth = 0
            /// The path's value when the change in flight began, or since last delivered.
            var old: Int? = nil
        }

        let handler: (Int?, Int?) -> Void
        let flight = Mutex(Flight())
        @exclusivity(unchecked) public var index = 0

        init(_ handler: @escaping (Int?, Int?) -> Void) { self.handler = handler }

        /// The path's intermediate object is about to be replaced; `old` is the path's value now.
        func begin(old: Int?) {
            flight.withLock { flight in
                if flight.depth == 0 { flight.old = old }
                flight.depth += 1
            }
        }

        /// The replacement is stored: ends the change, returning the value it started from.
        func end() -> Int? {
            flight.withLock { flight in
                flight.depth -= 1
                return flight.old
            }
        }

        /// The leaf of the path's child changed: delivered from the path's value while a change is in flight.
        public func leafChanged(old: Int, new: Int) {
            let from = flight.withLock { flight -> Int? in
                guard flight.depth > 0 else { return old }
                defer { flight.old = new }
                return flight.old
            }
            handler(from, new)
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
            for path in paths.withLock({ $0 }) { path.begin(old: old?.leaf) }
        }

        private func rewire(from old: Child?, to new: Child?) {
            for path in paths.withLock({ $0 }) {
                let from = path.end()
                if old !== new {
                    old?.observers.remove(path)
                    new?.observers.insert(path)
                }
                path.handler(from, new?.leaf)
            }
        }
    }
}
