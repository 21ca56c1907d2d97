import Synchronization

// How a key path is resolved without string tables: `observe` evaluates `root[keyPath: path]` while a
// per-thread tracking frame is installed; each `@Observed` getter that runs reports its instance and
// property to that frame. The reports, in order, are the dependencies of the path. Re-evaluating the
// path with tracking after an intermediate object changed yields the new dependencies (re-wiring).
//
// The getter's cost when no thread is tracking is one call to `_trackingIsActive()`, which the optimiser
// may hoist out of loops (see there).

/// How many tracking evaluations are running in the process, on any thread.
let trackingScopes = Atomic<Int>(0)

/// Whether any thread is tracking, as an out-of-line function the optimiser is told reads nothing.
///
/// Why not an inline atomic load: Swift's ARC optimiser treats an atomic instruction as a barrier, so
/// a getter containing one retains and releases its object on every read, several times the cost of
/// the read. A `readnone` call is no barrier; the optimiser may
/// reuse its result within one function body, even hoist it out of a loop. That is sound: the only
/// thread whose getters must see `true` is the one inside `Tracking.evaluate`, and its getters run in
/// fresh invocations (the key path's accessors), never in a body that asked before tracking began.
/// On other threads the flag only saves a thread-local lookup that would find nothing. (The three
/// optimiser contracts together: Design.md, "Optimiser contracts".)
@usableFromInline
@_effects(readnone) @inline(never)
func _trackingIsActive() -> Bool {
    trackingScopes.load(ordering: .relaxed) != 0
}

/// What a getter reports of its property for a path proof (see `PathProof`).
struct TrackedProperty {
    /// The property reached through an optional chain: `\Class?.?.property`.
    let chained: AnyKeyPath
    /// Wraps a value of the property's type in an optional.
    let wrap: LeafWrap
    /// Where the property's slot is in an instance, as its getter's `access` found it (32 bits, so
    /// that a recorded read is no larger for it).
    private let slotOffsetBits: Int32
    /// Whether the getter hands over a reader of its storage (every getter but an override's), which
    /// an evaluation collecting readers gets (`Tracking.storedValueReaders`).
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

/// One `@Observed` property read during a tracking evaluation.
struct TrackedAccess {
    /// The instance whose property was read (kept alive while the access is held).
    let object: AnyObject
    /// That property's observer list on that instance.
    let list: ObserverList
    /// The property's key path, rooted at the static type of the instance's class (`nil` for a read
    /// by a string key path, which has none, and for a read through a `StoredPath`, already proven).
    let keyPath: AnyKeyPath?
    /// What a path proof needs of the property (see `PathProof`); `nil` with `keyPath`.
    let property: TrackedProperty?

    var listID: ObjectIdentifier { ObjectIdentifier(list) }

    /// Where the property's slot is in `object`, as its getter reported it, once the slot there is
    /// seen to hold `list`; `nil` for a read that reported none.
    var slotOffset: Int? {
        guard let offset = property?.slotOffset, ListSlot.at(offset, in: object).pointee.holds(list) else {
            return nil
        }
        return offset
    }
}

extension [TrackedAccess] {
    /// The list of the property when a path read exactly one `@Observed` property of `root`, its key
    /// path (as its getter reported it) equals `keyPath`, type included, and `root` is an instance
    /// of exactly the class that declares it: then the property's old and new values are the path's,
    /// and its list can be used directly. (An instance of a subclass may override the property with
    /// a getter of its own, `get { super.x * 2 }`, whose value is not the stored one; such a root
    /// takes the path route, which evaluates the key path.)
    func directList(of root: AnyObject, _ keyPath: AnyKeyPath) -> ObserverList? {
        guard count == 1, self[0].object === root, self[0].keyPath == keyPath,
            ObjectIdentifier(type(of: root)) == ObjectIdentifier(type(of: keyPath).rootType)
        else { return nil }
        return self[0].list
    }
}

/// The accesses recorded on one thread during one evaluation.
final class TrackingFrame {
    // Touched only by the thread that installed the frame, and never across a call out, so Swift's
    // run-time exclusivity checks (two per recorded read) are off. Room for a typical path's reads
    // up front: one allocation per evaluation instead of one per read.
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

    /// The frame installed on the current thread, if it is evaluating with tracking.
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

    /// Runs `body`, returning its result and the `@Observed` properties it read.
    static func evaluate<Value>(_ body: () -> Value) -> (value: Value, accesses: [TrackedAccess]) {
        let frame = TrackingFrame()
        let value = withFrame(frame, body)
        return (value, frame.accesses)
    }

    /// Runs `body`, returning the `@Observed` properties it read and each one's storage reader, if its
    /// getter handed one over: what a stored path is built from (`StoredPath`).
    static func storedValueReaders(_ body: () -> Void) -> (accesses: [TrackedAccess], readers: [StoredValueReader?]) {
        let frame = TrackingFrame(collectingStoredValueReaders: true)
        withFrame(frame, body)
        return (frame.accesses, frame.storedValueReaders ?? [])
    }

    /// Evaluates `root[keyPath: keyPath]` without recording anything, even inside a tracking
    /// evaluation further up this thread's stack.
    static func value<Root, Value>(_ root: Root, _ keyPath: KeyPath<Root, Value>) -> Value {
        untracked { root[keyPath: keyPath] }
    }

    /// Runs `body` without recording anything, even inside a tracking evaluation further up.
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
