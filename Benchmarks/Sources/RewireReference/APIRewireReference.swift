import Synchronization

/// `GuardedRewireReference` with the three costs this API and its set target put on any re-wire of
/// `observe(\.child?.leaf)`, and nothing else:
/// - the child's observers are read by sets without a lock (`GatedLinks`);
/// - the intermediate object is reached through what the observation found when it was made (the
///   path is a key path: its intermediate's type is not in `observe`'s signature), so its leaf and
///   its observers are one indirect call each, through a witness table;
/// - the handler is given a change with `ObservedChange`'s fields, the path's key path among them.
/// Still typed, specialised for `Int`, one path, no willChange or re-entrancy bookkeeping beyond the
/// guarded reference's.
public enum APIRewireReference {
    /// What a handler is given: `ObservedChange`'s fields, its key path not retained (interned and
    /// kept for ever, as `ObservedChange`'s is; here the observation keeps it).
    public struct Change {
        public let oldValue: Int?
        public let kind: UInt8
        public let newValue: Int?
        public let isPrior: Bool
        public unowned(unsafe) let keyPath: AnyKeyPath
    }

    public final class Observation: ChildLink, @unchecked Sendable {
        let handler: (Change) -> Void
        let keyPath: AnyKeyPath
        /// How the intermediate's leaf and observers are read, as `observePath` found it.
        let access: any IntermediateAccess.Type
        let flight = PathFlight()
        @exclusivity(unchecked) public var index = 0

        init(keyPath: AnyKeyPath, access: any IntermediateAccess.Type, handler: @escaping (Change) -> Void) {
            self.keyPath = keyPath
            self.access = access
            self.handler = handler
        }

        func deliver(_ old: Int?, _ new: Int?) {
            handler(Change(oldValue: old, kind: 1, newValue: new, isPrior: false, keyPath: keyPath))
        }

        public func leafChanged(old: Int, new: Int) {
            deliver(flight.from(leafOld: old, new: new), new)
        }
    }

    /// An intermediate object's leaf and observers, read without knowing its type.
    public protocol IntermediateAccess {
        static func leaf(of object: AnyObject) -> Int
        /// Unretained: the object, which the caller holds, holds them.
        static func observers(of object: AnyObject) -> Unmanaged<GatedLinks<Observation>>
    }

    public final class Child: IntermediateAccess, @unchecked Sendable {
        public let observers = GatedLinks<Observation>()
        @exclusivity(unchecked) public var leaf = 0 {
            didSet { observers.notify(old: oldValue, new: leaf) }
        }

        public init() {}

        public static func leaf(of object: AnyObject) -> Int { unsafeDowncast(object, to: Child.self).leaf }

        public static func observers(of object: AnyObject) -> Unmanaged<GatedLinks<Observation>> {
            .passUnretained(unsafeDowncast(object, to: Child.self).observers)
        }
    }

    public final class Root: @unchecked Sendable {
        private let paths = Mutex(ContiguousArray<Observation>())

        @exclusivity(unchecked) public var child: Child? {
            willSet { willRewire(from: child) }
            didSet { rewire(from: oldValue, to: child) }
        }

        public init() {}

        public func observePath(_ keyPath: AnyKeyPath, _ handler: @escaping (Change) -> Void) {
            let observation = Observation(keyPath: keyPath, access: Child.self, handler: handler)
            paths.withLock { $0.append(observation) }
            child?.observers.insert(observation)
        }

        private func willRewire(from old: Child?) {
            for path in paths.withLock({ $0 }) { path.flight.begin(old: old.map(path.access.leaf)) }
        }

        private func rewire(from old: Child?, to new: Child?) {
            for path in paths.withLock({ $0 }) {
                let from = path.flight.end()
                if old !== new {
                    if let old { path.access.observers(of: old)._withUnsafeGuaranteedRef { $0.remove(path) } }
                    if let new { path.access.observers(of: new)._withUnsafeGuaranteedRef { $0.insert(path) } }
                }
                path.deliver(from, new.map(path.access.leaf))
            }
        }
    }
}
