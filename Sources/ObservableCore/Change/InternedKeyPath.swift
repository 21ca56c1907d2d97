/// A key path kept for the rest of the process, so a change refers to it `unowned(unsafe)` and
/// touches no reference count. Costs memory only for key paths built with distinct subscript
/// arguments. Assumes `object` was interned (`KeyPathTable` never frees one). Proved by
/// `KeyPathInterningTests` under ASan.
@usableFromInline
struct InternedKeyPath: @unchecked Sendable {  // immutable; the object is immutable and immortal
    @usableFromInline unowned(unsafe) let object: AnyKeyPath

    /// Interns `keyPath`: returns the table's equal key path, adding `keyPath` if there is none.
    @usableFromInline
    init(_ keyPath: AnyKeyPath) {
        object = KeyPathTable.shared.intern(keyPath).object
    }

    init(interned: AnyKeyPath) {
        object = interned
    }
}

/// The process-wide table of interned key paths: each equal key path once, for ever.
final class KeyPathTable: @unchecked Sendable {
    static let shared = KeyPathTable()

    private let lock = ShortLock()
    // Guarded by `lock`; both hold their key paths for ever.
    /// Every interned object, by identity: the common case (a literal key path is one object).
    @exclusivity(unchecked) private var byIdentity: [ObjectIdentifier: AnyKeyPath] = [:]
    /// The interned key paths by hash value, for an equal key path that is another object.
    @exclusivity(unchecked) private var byHash: [Int: [AnyKeyPath]] = [:]

    /// How many key paths are interned (for the tests: it must stay flat).
    var count: Int { lock.withLock { byIdentity.count } }

    /// The interned key path equal to `keyPath`, interning `keyPath` if there is none.
    func intern(_ keyPath: AnyKeyPath) -> InternedKeyPath {
        let identity = ObjectIdentifier(keyPath)
        if let interned = lock.withLock({ byIdentity[identity] }) { return InternedKeyPath(interned: interned) }
        let hash = keyPath.hashValue
        if let equal = equal(to: keyPath, hash: hash) { return InternedKeyPath(interned: equal) }
        // Two threads interning equal new key paths at once may both add theirs; both are kept and
        // both stay valid.
        lock.withLock {
            byIdentity[identity] = keyPath
            byHash[hash, default: []].append(keyPath)
        }
        return InternedKeyPath(interned: keyPath)
    }

    /// The interned key path equal to `keyPath`, if there is one; interns nothing.
    func existing(_ keyPath: AnyKeyPath) -> AnyKeyPath? {
        if let interned = lock.withLock({ byIdentity[ObjectIdentifier(keyPath)] }) { return interned }
        return equal(to: keyPath, hash: keyPath.hashValue)
    }

    /// The interned key path equal to `keyPath`. Hashing may run user code, so outside the lock.
    private func equal(to keyPath: AnyKeyPath, hash: Int) -> AnyKeyPath? {
        let candidates = lock.withLock { byHash[hash] ?? [] }
        return candidates.first { $0 == keyPath }
    }
}
