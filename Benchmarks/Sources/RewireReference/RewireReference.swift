import Synchronization

/// The least a re-wire of `\.child?.leaf` must do, written by hand for that one path: the floor of the
/// "intermediate replaced" row, as the C loop is the per-observer row's. When `child` is replaced, each
/// observation of the path moves its link from the old child's observers to the new child's (each list
/// under its own blocking lock, so a leaf set on another thread is not lost), reads the leaf on both
/// sides and calls its handler with the two values. No allocation once warm (links move, lists keep
/// their capacity); no key path, no generic value, no re-entrancy or changes-in-flight bookkeeping.
/// Its fields are `@exclusivity(unchecked)`: a run-time exclusivity check on each access to a class's
/// property is not work a re-wire must do, and ObservableCore's setters and storage readers make none.
public enum RewireReference {
    /// One observation's membership of a child's observers: moved, never reallocated.
    public final class Link: ChildLink, @unchecked Sendable {
        let handler: (Int?, Int?) -> Void
        @exclusivity(unchecked) public var index = 0

        init(_ handler: @escaping (Int?, Int?) -> Void) { self.handler = handler }

        public func leafChanged(old: Int, new: Int) { handler(old, new) }
    }

    public typealias Child = LinkedChild<Link>

    public final class Root: @unchecked Sendable {
        /// The observations of the path: each one's link in the current child's observers.
        private let paths = Mutex(ContiguousArray<Link>())

        @exclusivity(unchecked) public var child: Child? {
            didSet { rewire(from: oldValue, to: child) }
        }

        public init() {}

        public func observePath(_ handler: @escaping (Int?, Int?) -> Void) {
            let link = Link(handler)
            paths.withLock { $0.append(link) }
            child?.observers.insert(link)
        }

        private func rewire(from old: Child?, to new: Child?) {
            guard old !== new else { return }
            // The handlers run outside the lock, as user code must: the links are copied out (a retain).
            for link in paths.withLock({ $0 }) {
                old?.observers.remove(link)
                new?.observers.insert(link)
                link.handler(old?.leaf, new?.leaf)
            }
        }
    }
}
