/// A proven path (`PathProof`) read through the storage readers its getters handed over: a class
/// check and a reader call per property, no key path projection or tracking. Assumes each object is
/// of exactly its step's class (checked on every read; another class ends it) and each property but
/// the last holds a one-word reference, also as its setter lends it; an `Intermediate` holds its
/// object unretained, kept alive by the setter or by `withIntermediate(of:)`. Proved by `StoredPathTests` and
/// `ProofEquivalenceTests` under ASan.
final class StoredPath: @unchecked Sendable {  // immutable
    /// One property, read on instances of exactly `objectType`.
    private struct Step {
        let objectType: ObjectIdentifier
        let slotOffset: Int
        let reader: StoredValueReader
    }

    private let steps: [Step]
    /// The last step's reader, apart: called from a field it is not copied out of (a retain per read).
    private let lastReader: StoredValueReader
    /// How the path's value is made from its last property's (see `PathProof`).
    let leaf: LeafConversion
    /// The path's value type when optional: its `nil` is the value at a `nil` intermediate.
    private let none: (any OptionalProtocol.Type)?

    /// The stored path of a proven evaluation, if every getter on it hands over a reader; evaluates the
    /// path once more to collect them.
    init?(
        _ accesses: [TrackedAccess], root: AnyObject, keyPath: AnyKeyPath, leaf: LeafConversion, valueType: Any.Type
    ) {
        guard !accesses.isEmpty, accesses.allSatisfy({ $0.property?.offersStoredValueReader == true }) else {
            return nil
        }
        let (collected, readers) = Tracking.storedValueReaders { _ = (root as Any)[keyPath: keyPath] }
        guard collected.count == accesses.count, readers.count == accesses.count else { return nil }
        var steps: [Step] = []
        for (index, access) in accesses.enumerated() {
            guard let property = access.keyPath, collected[index].list === access.list,
                collected[index].object === access.object, let reader = readers[index],
                let slotOffset = access.slotOffset
            else { return nil }
            // The next object must be what the reader reads, as a plain reference.
            if index < accesses.count - 1,
                !Self.isReference(type(of: property).valueType)
                    || Self.next(access.object, reader) !== accesses[index + 1].object
            {
                return nil
            }
            steps.append(
                Step(objectType: ObjectIdentifier(type(of: access.object)), slotOffset: slotOffset, reader: reader))
        }
        self.steps = steps
        self.lastReader = steps[steps.count - 1].reader
        self.leaf = leaf
        self.none = leaf.wrap == nil ? nil : valueType as? any OptionalProtocol.Type
    }

    /// Where a read of the path ended; not generic, so the read needs no type metadata.
    enum End {
        /// At the last property, in `object` (which the end keeps alive). Not its reader, whose
        /// context the end would retain.
        case leaf(object: AnyObject)
        /// At an intermediate object that is `nil`: the path's value is `nil`.
        case none
    }

    /// Reads the path from `root`, appending each list read (the first is the root's); `nil` on a class
    /// mismatch.
    func read<Root: AnyObject>(_ root: Root, recording lists: inout [ObserverList]) -> End? {
        lists.reserveCapacity(steps.count)
        return walk(root) { object, step in
            lists.append(ListSlot.at(step.slotOffset, in: object).pointee.observers())
        }
    }

    func read<Root: AnyObject>(_ root: Root) -> End? {
        walk(root) { _, _ in }
    }

    func value<Value>(at end: End, as _: Value.Type) -> Value {
        // Unspecialised, a temporary allocation's closure would cost a metadata lookup.
        let cell = UnsafeMutablePointer<Value>.allocate(capacity: 1)
        defer { cell.deallocate() }
        initialize(UnsafeMutableRawPointer(cell), at: end, as: Value.self)
        return cell.move()
    }

    /// Initialises `destination` with the path's value where a read ended.
    func initialize<Value>(_ destination: UnsafeMutableRawPointer, at end: End, as _: Value.Type) {
        switch end {
        case .leaf(let object):
            lastReader.initialize(object, destination, leaf.wrap != nil)
        case .none:
            none.unsafelyUnwrapped.initializeNone(at: destination)
        }
    }

    /// Whether a change of the root's property can be re-wired from its setter's values: two
    /// properties, the first on the root.
    var rewiresFromSetter: Bool { steps.count == 2 }

    /// The object in a value of the first property (a one-word reference, or `nil`), if it is one of
    /// exactly the second step's class; `.none` when the value is `nil`. For a two-property path.
    /// Not retained: the setter lends the value for as long as the intermediate is used.
    func intermediate(in value: BorrowedValue) -> Intermediate? {
        guard let bits = value.address.load(as: UnsafeRawPointer?.self) else { return Intermediate.none }
        let object = Unmanaged<AnyObject>.fromOpaque(bits)
        guard object._withUnsafeGuaranteedRef({ ObjectIdentifier(type(of: $0)) }) == steps[1].objectType else {
            return nil
        }
        return .object(object)
    }

    /// Calls `body` with the intermediate object now in `root`, held for the call, as
    /// `intermediate(in:)` says; `nil` on a class mismatch.
    func withIntermediate<Root: AnyObject>(of root: Root, _ body: (Intermediate?) -> Void) {
        guard ObjectIdentifier(type(of: root)) == steps[0].objectType else { return body(nil) }
        guard let object = Self.next(root, steps[0].reader) else { return body(Intermediate.none) }
        guard ObjectIdentifier(type(of: object)) == steps[1].objectType else { return body(nil) }
        withExtendedLifetime(object) { body(.object(Unmanaged.passUnretained(object))) }
    }

    /// Whether no set of the root's first property began after the one stamped `stamp` (then the
    /// root holds that set's new value). A change announced by hand is not a set.
    func isLatestSet<Root: AnyObject>(_ stamp: Int, of root: Root) -> Bool {
        stamp != ObserverList.unstamped && ObjectIdentifier(type(of: root)) == steps[0].objectType
            && ListSlot.at(steps[0].slotOffset, in: root).pointee.list.load(ordering: .acquiring)?
                ._withUnsafeGuaranteedRef { $0.stamp == stamp } == true
    }

    /// An intermediate object of a two-property path, of its step's class, or `nil`. Holds no
    /// reference (so copying one costs nothing): whoever lent the object keeps it alive while it is used.
    enum Intermediate {
        case object(Unmanaged<AnyObject>)
        case none

        @inline(__always)
        func withObject<Result>(_ body: (AnyObject) -> Result) -> Result? {
            switch self {
            case .object(let object): object._withUnsafeGuaranteedRef(body)
            case .none: nil
            }
        }
    }

    /// The last property's list in `intermediate`, made if needed; unretained: the intermediate's
    /// slot owns it while the intermediate lives, and the caller keeps the intermediate.
    func leafList(in intermediate: Intermediate) -> Unmanaged<ObserverList>? {
        intermediate.withObject { ListSlot.at(steps[1].slotOffset, in: $0).pointee.unretainedObservers() }
    }

    /// Initialises `destination` with the path's value through `intermediate`.
    func initializeValue(_ destination: UnsafeMutableRawPointer, through intermediate: Intermediate) {
        switch intermediate {
        case .object(let object):
            object._withUnsafeGuaranteedRef { lastReader.initialize($0, destination, leaf.wrap != nil) }
        case .none:
            none.unsafelyUnwrapped.initializeNone(at: destination)
        }
    }

    /// `leaf` when a read of `count` lists reached the last property; `nil` otherwise.
    func leaf(afterReading count: Int) -> LeafConversion? {
        count == steps.count ? leaf : nil
    }

    @inline(__always)
    private func walk<Root: AnyObject>(_ root: Root, _ visit: (AnyObject, Step) -> Void) -> End? {
        steps.withUnsafeBufferPointer { steps in
            // The root is read in place, not copied: a path holds it weakly, so its retains go through a side table.
            guard ObjectIdentifier(type(of: root)) == steps[0].objectType else { return nil }
            visit(root, steps[0])
            if steps.count == 1 { return .leaf(object: root) }
            guard var object = Self.next(root, steps[0].reader) else { return none == nil ? nil : End.none }
            var index = 1
            while true {
                guard ObjectIdentifier(type(of: object)) == steps[index].objectType else { return nil }
                visit(object, steps[index])
                if index == steps.count - 1 { return .leaf(object: object) }
                guard let next = Self.next(object, steps[index].reader) else { return none == nil ? nil : End.none }
                object = next
                index += 1
            }
        }
    }

    private static func next(_ object: AnyObject, _ reader: StoredValueReader) -> AnyObject? {
        var next: AnyObject?
        withUnsafeMutablePointer(to: &next) { reader.initialize(object, UnsafeMutableRawPointer($0), false) }
        return next
    }

    /// Whether a value of `type` is a class reference or an optional one: one word, `nil` as zero.
    private static func isReference(_ type: Any.Type) -> Bool {
        type is AnyClass || (type as? any OptionalProtocol.Type)?.wrappedType is AnyClass
    }
}
