/// A key path that lives for the rest of the process, so a change can carry it without reference
/// counting.
///
/// Every `ObservedChange` says which key path changed; held strongly, that would be a retain and a
/// release per observer per notification. Interned key paths are never freed, so a change refers to
/// one with `unowned(unsafe)` and copying, passing and destroying a change touches no reference
/// count; reading `ObservedChange.keyPath` retains as usual.
///
/// The cost is memory: the first key path of each value observed is kept until the process ends (as
/// Cocoa keeps its per-class observation info). A key path literal without subscript arguments is a
/// single object the runtime already caches forever; only key paths built at run time with distinct
/// subscript arguments (`\.items[i]` for many `i`) add one entry each.
///
/// Assumes that `object` was interned (`KeyPathTable` never lets one go). Proved by
/// `KeyPathInterningTests` (a key path built at run time read from a stored change after everything
/// else let it go) under AddressSanitizer in `.ci/run`.
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
    // Guarded by `lock` (so without run-time exclusivity checks). Both hold their key paths strongly,
    // for ever.
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

    /// The interned key path equal to `keyPath`, whose hash value is `hash`. Hashing and comparing a
    /// key path may run the `Hashable` conformances of its subscript arguments: user code, so
    /// outside the lock.
    private func equal(to keyPath: AnyKeyPath, hash: Int) -> AnyKeyPath? {
        let candidates = lock.withLock { byHash[hash] ?? [] }
        return candidates.first { $0 == keyPath }
    }
}
