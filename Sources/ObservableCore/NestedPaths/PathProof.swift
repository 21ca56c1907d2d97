/// Proves that a key path is pure navigation through the `@Observed` properties a tracking
/// evaluation saw it read, so that a change of the last is delivered with the setter's values
/// without evaluating the path. The path is rebuilt from each getter's key paths with `appending`
/// and must match the observed one by class, hash and description without addresses (`==` differs
/// on flags `appending` sets). Each object must be of exactly the reporting getter's class. What is
/// not proven is evaluated: a failed proof costs speed, never correctness.
enum PathProof {
    /// How the path's value is made from its last property's, and its `StoredPath` when it has one;
    /// `nil` when not proven. The key-path part is worked out once per process; the object checks
    /// every time.
    static func proof(
        of keyPath: AnyKeyPath, root: AnyObject, accesses: [TrackedAccess], valueType: Any.Type
    ) -> (leaf: LeafConversion, stored: StoredPath?)? {
        guard let first = accesses.first, first.object === root, accesses.count <= ProofKey.capacity else { return nil }
        // Each object must be of exactly the class whose getter reported the read: in a subclass, an
        // override (`get { super.x * 2 }`) would make the path's value differ from the stored one.
        var key = ProofKey(keyPath: ObjectIdentifier(keyPath))
        for access in accesses {
            guard let property = access.keyPath,
                ObjectIdentifier(type(of: access.object)) == ObjectIdentifier(type(of: property).rootType)
            else { return nil }
            key.append(ObjectIdentifier(property))
        }
        if let known = ProofTable.shared.proof(for: key) { return known.outcome }
        // A getter in a generic class forms a new key path object at each evaluation: key the outcome
        // by the interned (equal) key paths instead, so the table holds one entry per distinct path.
        let properties = accesses.map { InternedKeyPath($0.keyPath.unsafelyUnwrapped).object }
        var internedKey = ProofKey(keyPath: ObjectIdentifier(keyPath))
        for property in properties { internedKey.append(ObjectIdentifier(property)) }
        if let known = ProofTable.shared.proof(for: internedKey) { return known.outcome }
        let leaf = prove(keyPath, accesses, valueType: valueType)
        let stored = leaf.flatMap { StoredPath(accesses, root: root, keyPath: keyPath, leaf: $0, valueType: valueType) }
        // The key paths are kept with the outcome, so their identities cannot be reused.
        let proof = Proof(leaf: leaf, stored: stored, keyPaths: [keyPath] + properties)
        // Two threads proving one key at once: both get the proof recorded first, kept for ever.
        return ProofTable.shared.record(proof, for: internedKey).outcome
    }

    /// A key path and the properties a path read, by identity; no allocation (paths of up to four
    /// properties are proven, longer ones are evaluated).
    fileprivate struct ProofKey: Hashable {
        static let capacity = 4
        let keyPath: ObjectIdentifier
        private var count = 0
        private var properties: (ObjectIdentifier?, ObjectIdentifier?, ObjectIdentifier?, ObjectIdentifier?) = (
            nil, nil, nil, nil
        )

        init(keyPath: ObjectIdentifier) {
            self.keyPath = keyPath
        }

        mutating func append(_ property: ObjectIdentifier) {
            switch count {
            case 0: properties.0 = property
            case 1: properties.1 = property
            case 2: properties.2 = property
            default: properties.3 = property
            }
            count += 1
        }

        static func == (a: ProofKey, b: ProofKey) -> Bool {
            a.keyPath == b.keyPath && a.count == b.count && a.properties.0 == b.properties.0
                && a.properties.1 == b.properties.1 && a.properties.2 == b.properties.2
                && a.properties.3 == b.properties.3
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(keyPath)
            hasher.combine(count)
            hasher.combine(properties.0)
            hasher.combine(properties.1)
            hasher.combine(properties.2)
            hasher.combine(properties.3)
        }
    }

    fileprivate struct Proof {
        let leaf: LeafConversion?
        let stored: StoredPath?
        let keyPaths: [AnyKeyPath]

        var outcome: (leaf: LeafConversion, stored: StoredPath?)? { leaf.map { ($0, stored) } }
    }

    private static func prove(_ keyPath: AnyKeyPath, _ accesses: [TrackedAccess], valueType: Any.Type)
        -> LeafConversion?
    {
        guard var rebuilt = accesses.first?.keyPath, let last = accesses.last?.property,
            let leafType = accesses.last?.keyPath.map({ type(of: $0).valueType })
        else { return nil }
        for access in accesses.dropFirst() {
            let next = wrappedType(of: type(of: rebuilt).valueType) != nil ? access.property?.chained : access.keyPath
            guard let next, let appended = rebuilt.appending(path: next) else { return nil }
            rebuilt = appended
        }
        guard type(of: rebuilt) == type(of: keyPath), rebuilt.hashValue == keyPath.hashValue,
            withoutAddresses(rebuilt.debugDescription) == withoutAddresses(keyPath.debugDescription)
        else { return nil }
        if same(valueType, leafType) { return LeafConversion(wrap: nil) }
        if let wrapped = wrappedType(of: valueType), same(wrapped, leafType) { return LeafConversion(wrap: last.wrap) }
        return nil
    }

    /// `description` with every hexadecimal address (`0x…`) cut to `0x`.
    private static func withoutAddresses(_ description: String) -> String {
        var result = ""
        var inAddress = false
        var previous: Character = " "
        for character in description {
            if inAddress {
                if character.isHexDigit { continue }
                inAddress = false
            }
            if previous == "0" && character == "x" { inAddress = true }
            result.append(character)
            previous = character
        }
        return result
    }

    private static func same(_ a: Any.Type, _ b: Any.Type) -> Bool {
        ObjectIdentifier(a) == ObjectIdentifier(b)
    }

    /// `Wrapped` when `type` is `Optional<Wrapped>`.
    private static func wrappedType(of type: Any.Type) -> Any.Type? {
        (type as? any OptionalProtocol.Type)?.wrappedType
    }
}

/// The outcomes of `PathProof.prove`, for the life of the process (like the interned key paths).
final class ProofTable: @unchecked Sendable {
    static let shared = ProofTable()

    private let lock = Lock()
    // Guarded by `lock`.
    @exclusivity(unchecked) private var proofs: [PathProof.ProofKey: PathProof.Proof] = [:]

    fileprivate func proof(for key: PathProof.ProofKey) -> PathProof.Proof? {
        lock.withLock { proofs[key] }
    }

    /// Records `proof` for `key` unless one is recorded already; returns the one recorded.
    fileprivate func record(_ proof: PathProof.Proof, for key: PathProof.ProofKey) -> PathProof.Proof {
        lock.withLock {
            if let recorded = proofs[key] { return recorded }
            proofs[key] = proof
            return proof
        }
    }

    /// How many outcomes are recorded (for the tests: it must stay flat).
    var count: Int { lock.withLock { proofs.count } }
}
