/// A key path that lives for the rest of the process, so a change can carry it without reference
/// counting.
///
/// Every `ObservedChange` says which key path changed. Held strongly, that cost a retain and a release
/// (two atomic read-modify-writes) per observer per notification: about a third of a one-observer
/// set. Interned key paths are never freed, so a change refers to one with `unowned(unsafe)` and
/// copying, passing and destroying a change touches no reference count; reading
/// `ObservedChange.keyPath` retains as usual.
///
/// The cost is memory: the first key path of each value observed is kept until the process ends (as
/// Cocoa keeps its per-class observation info). A key path literal without subscript arguments is a
/// single object the runtime already caches forever; only key paths built at run time with distinct
/// subscript arguments (`\.items[i]` for many `i`) add one entry each.
@usableFromInline
struct InternedKeyPath: @unchecked Sendable {   // immutable; the object is immutable and immortal
    @usableFromInline unowned(unsafe) let object: AnyKeyPath

    /// Interns `keyPath`: returns the table's equal key path, adding `keyPath` if there is none.
    @usableFromInline
    init(_ keyPath: AnyKeyPath) {
        object = KeyPathTable.shared.intern(keyPath).object
    }

    init(interned: AnyKeyPath) {
        object = interned
    }

    /// Interns `keyPath` and looks up whether, on instances of `rootType`, it is known to be one
    /// `@Observed` property and where that property's slot is (see `learnDirectSlot`).
    @usableFromInline
    static func resolve(_ keyPath: AnyKeyPath, rootType: AnyClass) -> (keyPath: InternedKeyPath, slotOffset: Int?) {
        KeyPathTable.shared.intern(keyPath, rootType: rootType)
    }

    /// Records that on `root`'s class this key path is the one `@Observed` property whose list is
    /// `list` (a tracking evaluation found that), so later registrations can skip the evaluation and
    /// go to the slot. The slot is found among the class's own slot fields, by the list it holds.
    func learnDirectSlot(of root: AnyObject, list: ObserverList) {
        let rootType: AnyClass = type(of: root)
        let base = UnsafeRawPointer(Unmanaged.passUnretained(root).toOpaque())
        for offset in ReflectedFields.of(rootType).slotOffsets
        where base.advanced(by: offset).assumingMemoryBound(to: _$ObservationSlot.self).pointee.holds(list) {
            KeyPathTable.shared.setDirectSlot(offset, for: self, rootType: rootType)
            return
        }
    }
}

/// The process-wide table of interned key paths.
private final class KeyPathTable: @unchecked Sendable {
    static let shared = KeyPathTable()

    private let lock = SpinLock()
    // Guarded by `lock` (so without run-time exclusivity checks). All hold their key paths strongly,
    // for ever.
    /// In front of `resolutions`: a direct-mapped cache that needs no hashing (one registration
    /// looks here first; a literal key path observed on one class is always found here).
    @exclusivity(unchecked) private var recent = ContiguousArray(repeating: RecentResolution(), count: 256)
    /// Every interned object, by identity: the common case (a literal key path is one object).
    @exclusivity(unchecked) private var byIdentity: [ObjectIdentifier: AnyKeyPath] = [:]
    /// The interned key paths by hash value, for an equal key path that is another object.
    @exclusivity(unchecked) private var byHash: [Int: [AnyKeyPath]] = [:]
    /// For an interned key path and a root class: the key path, and the slot offset once learnt.
    /// Keyed by the interned object's identity, which is stable because it is never freed.
    @exclusivity(unchecked) private var resolutions: [ResolutionKey: (keyPath: AnyKeyPath, slotOffset: Int?)] = [:]

    private struct ResolutionKey: Hashable {
        let keyPath: ObjectIdentifier
        let rootType: ObjectIdentifier

        /// The `recent` entry for this key.
        var recentIndex: Int {
            let keyPath = UInt(bitPattern: self.keyPath), rootType = UInt(bitPattern: self.rootType)
            return Int(truncatingIfNeeded: (keyPath >> 4) ^ (rootType >> 3)) & 255
        }
    }

    /// A `resolutions` entry, by identities only (the key path is an interned object, never freed).
    private struct RecentResolution {
        var keyPath: ObjectIdentifier?
        var rootType: ObjectIdentifier?
        var slotOffset: Int?
    }

    private func remember(_ key: ResolutionKey, _ slotOffset: Int?) {
        recent[key.recentIndex] = RecentResolution(keyPath: key.keyPath, rootType: key.rootType, slotOffset: slotOffset)
    }

    /// Interns `keyPath` and returns what is known of it on `rootType`: one lookup when the key path
    /// is itself the interned object (a literal) and was resolved on that class before.
    func intern(_ keyPath: AnyKeyPath, rootType: AnyClass) -> (keyPath: InternedKeyPath, slotOffset: Int?) {
        let key = ResolutionKey(keyPath: ObjectIdentifier(keyPath), rootType: ObjectIdentifier(rootType))
        let known = lock.withLock { () -> (isRecent: Bool, slotOffset: Int?, keyPath: AnyKeyPath?) in
            let recent = self.recent[key.recentIndex]
            // Only interned objects are ever remembered, so a match means `keyPath` is interned.
            if recent.keyPath == key.keyPath && recent.rootType == key.rootType { return (true, recent.slotOffset, nil) }
            guard let known = resolutions[key] else { return (false, nil, nil) }
            remember(key, known.slotOffset)
            return (false, known.slotOffset, known.keyPath)
        }
        if known.isRecent { return (InternedKeyPath(interned: keyPath), known.slotOffset) }
        if let internedKeyPath = known.keyPath { return (InternedKeyPath(interned: internedKeyPath), known.slotOffset) }
        let interned = intern(keyPath)
        let internedKey = ResolutionKey(keyPath: ObjectIdentifier(interned.object), rootType: key.rootType)
        return lock.withLock {
            if let known = resolutions[internedKey] { return (interned, known.slotOffset) }
            resolutions[internedKey] = (interned.object, nil)
            remember(internedKey, nil)
            return (interned, nil)
        }
    }

    func setDirectSlot(_ offset: Int, for keyPath: InternedKeyPath, rootType: AnyClass) {
        let key = ResolutionKey(keyPath: ObjectIdentifier(keyPath.object), rootType: ObjectIdentifier(rootType))
        lock.withLock {
            resolutions[key] = (keyPath.object, offset)
            remember(key, offset)
        }
    }

    /// The interned key path equal to `keyPath`, interning `keyPath` if there is none.
    func intern(_ keyPath: AnyKeyPath) -> InternedKeyPath {
        let identity = ObjectIdentifier(keyPath)
        if let interned = lock.withLock({ byIdentity[identity] }) { return InternedKeyPath(interned: interned) }
        // Hashing and comparing a key path may run the `Hashable` conformances of its subscript
        // arguments: user code, so outside the lock. Two threads interning equal new key paths at
        // once may both add theirs; both are kept and both stay valid.
        let hash = keyPath.hashValue
        let candidates = lock.withLock { byHash[hash] ?? [] }
        if let equal = candidates.first(where: { $0 == keyPath }) { return InternedKeyPath(interned: equal) }
        lock.withLock {
            byIdentity[identity] = keyPath
            byHash[hash, default: []].append(keyPath)
        }
        return InternedKeyPath(interned: keyPath)
    }
}
