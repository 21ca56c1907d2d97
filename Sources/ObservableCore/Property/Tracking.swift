import Synchronization

// `observe` evaluates `root[keyPath: path]` under a per-thread tracking frame; each `@Observed`
// getter that runs reports to it, and the reports, in order, are the path's dependencies.

let trackingScopes = Atomic<Int>(0)

/// Whether any thread is tracking, out of line and `readnone`: an inline atomic load is an ARC
/// barrier. Sound because only the thread inside `Tracking.evaluate` must see `true`, and its
/// getters run in fresh invocations. CONTRIBUTING.md, "Unsafe code".
@usableFromInline
@_effects(readnone) @inline(never)
func _trackingIsActive() -> Bool {
    trackingScopes.load(ordering: .relaxed) != 0
}

/// What a getter reports of its property for a path proof (see `PathProof`).
struct TrackedProperty {
    let chained: AnyKeyPath
    let wrap: LeafWrap
    /// Where the property's slot is, as its getter found it (32 bits, to keep a read small).
    private let slotOffsetBits: Int32
    /// Whether the getter hands over a storage reader (all but an override's).
    let offersStoredValueReader: Bool

    init(chained: AnyKeyPath, wrap: @escaping LeafWrap, slotOffset: Int, offersStoredValueReader: Bool) {
        self.chained = chained
        self.wrap = wrap
        self.slotOffsetBits = Int32(exactly: slotOffset) ?? 0
        self.offersStoredValueReader = offersStoredValueReader
    }

    /// Where the property's slot is in an instance; `nil` if what the getter found cannot be a field.
    var slotOffset: Int? { slotOffsetBits > 0 ? Int(slotOffsetBits) : nil }
}

struct TrackedAccess {
    let object: AnyObject
    let list: ObserverList
    /// The key path, rooted at the instance's static class; `nil` for string key and stored reads.
    let keyPath: AnyKeyPath?
    /// What a path proof needs of the property (see `PathProof`); `nil` with `keyPath`.
    let property: TrackedProperty?

    var listID: ObjectIdentifier { ObjectIdentifier(list) }

    /// Where the slot is in `object`, once seen to hold `list`; `nil` when none was reported.
    var slotOffset: Int? {
        guard let offset = property?.slotOffset, ListSlot.at(offset, in: object).pointee.holds(list) else {
            return nil
        }
        return offset
    }
}

extension [TrackedAccess] {
    /// The property's list when the path read exactly one `@Observed` property of `root`, with a key
    /// path equal to `keyPath`, on an instance of exactly the declaring class (a subclass may override
    /// the getter).
    func directList(of root: AnyObject, _ keyPath: AnyKeyPath) -> ObserverList? {
        guard count == 1, self[0].object === root, self[0].keyPath == keyPath,
            ObjectIdentifier(type(of: root)) == ObjectIdentifier(type(of: keyPath).rootType)
        else { return nil }
        return self[0].list
    }
}

final class TrackingFrame {
    // One thread, never across a call out: no exclusivity checks. Room for a typical path's reads.
    @exclusivity(unchecked) private(set) var accesses: [TrackedAccess] = []

    /// Each access's storage reader, in step with `accesses`, when the evaluation collects them.
    private(set) var storedValueReaders: [StoredValueReader?]?

    init(collectingStoredValueReaders: Bool = false) {
        accesses.reserveCapacity(4)
        if collectingStoredValueReaders { storedValueReaders = [] }
    }

    func record(
        _ object: AnyObject, _ list: ObserverList, _ keyPath: AnyKeyPath?, property: TrackedProperty? = nil,
        stored: () -> StoredValueReader? = { nil }
    ) {
        let id = ObjectIdentifier(list)
        // Paths are short; a property read twice (a computed property reading it twice) counts once.
        if accesses.contains(where: { $0.listID == id }) { return }
        accesses.append(TrackedAccess(object: object, list: list, keyPath: keyPath, property: property))
        if storedValueReaders != nil { storedValueReaders!.append(stored()) }
    }

    static var current: TrackingFrame? {
        ThreadLocal.get(.trackingFrame, as: TrackingFrame.self)
    }
}

enum Tracking {
    /// Evaluates `root[keyPath: keyPath]`, returning the value and the `@Observed` properties it read.
    static func evaluate<Root, Value>(_ root: Root, _ keyPath: KeyPath<Root, Value>) -> (
        value: Value, accesses: [TrackedAccess]
    ) {
        evaluate { root[keyPath: keyPath] }
    }

    static func evaluate<Value>(_ body: () -> Value) -> (value: Value, accesses: [TrackedAccess]) {
        let frame = TrackingFrame()
        let value = withFrame(frame, body)
        return (value, frame.accesses)
    }

    /// Runs `body`, returning the properties it read and each one's storage reader, if handed over.
    static func storedValueReaders(_ body: () -> Void) -> (accesses: [TrackedAccess], readers: [StoredValueReader?]) {
        let frame = TrackingFrame(collectingStoredValueReaders: true)
        withFrame(frame, body)
        return (frame.accesses, frame.storedValueReaders ?? [])
    }

    /// Evaluates `root[keyPath: keyPath]` without recording, even inside a tracking evaluation.
    static func value<Root, Value>(_ root: Root, _ keyPath: KeyPath<Root, Value>) -> Value {
        untracked { root[keyPath: keyPath] }
    }

    static func untracked<Value>(_ body: () -> Value) -> Value {
        withFrame(nil, body)
    }

    private static func withFrame<Result>(_ frame: TrackingFrame?, _ body: () -> Result) -> Result {
        let previous = ThreadLocal.exchange(.trackingFrame, frame)
        if frame != nil { trackingScopes.add(1, ordering: .relaxed) }
        defer {
            if frame != nil { trackingScopes.subtract(1, ordering: .relaxed) }
            ThreadLocal.exchange(.trackingFrame, previous)
        }
        return body()
    }
}
