import Synchronization

extension InternedKeyPath {
    /// Interns `keyPath`, and whether on `rootType` it is one `@Observed` property, with its slot.
    @usableFromInline
    static func resolve(_ keyPath: AnyKeyPath, rootType: AnyClass) -> (keyPath: InternedKeyPath, slotOffset: Int?) {
        KeyPathResolutions.shared.resolve(keyPath, rootType: rootType)
    }

    /// Whether the key path force-unwraps (`\.maybe!.name`), which would trap on re-evaluation once
    /// `nil`; read once from its description, where `!` appears only for a force unwrap.
    var forceUnwraps: Bool {
        KeyPathResolutions.shared.forceUnwraps(self)
    }
}

/// What is learnt of interned key paths on each root class: one property's slot, or a path's plan.
final class KeyPathResolutions: @unchecked Sendable {
    static let shared = KeyPathResolutions()

    private let lock = ShortLock()
    /// A lock-free direct-mapped cache in front of `resolutions`; every `Resolution` is kept in `made`,
    /// as the slots assume.
    private let recent = UnretainedSlots<Resolution>(count: 256)
    // Guarded by `lock`.
    /// By interned key path (never freed, so its identity is stable) and root class.
    @exclusivity(unchecked) private var resolutions: [ResolutionKey: Resolution] = [:]
    /// Every `Resolution` made, kept alive for `recent`'s readers.
    @exclusivity(unchecked) private var made: [Resolution] = []

    private struct ResolutionKey: Hashable {
        let keyPath: ObjectIdentifier
        let rootType: ObjectIdentifier

        func recentIndex(of count: Int) -> Int {
            let keyPath = UInt(bitPattern: self.keyPath)
            let rootType = UInt(bitPattern: self.rootType)
            return Int(truncatingIfNeeded: (keyPath >> 4) ^ (rootType >> 3)) & (count - 1)
        }
    }

    /// What is known of an interned key path on a root class; immutable.
    private final class Resolution: @unchecked Sendable {
        let key: ResolutionKey
        let keyPath: AnyKeyPath
        let slotOffset: Int?
        let plan: PathPlan?

        init(key: ResolutionKey, keyPath: AnyKeyPath, slotOffset: Int?, plan: PathPlan? = nil) {
            self.key = key
            self.keyPath = keyPath
            self.slotOffset = slotOffset
            self.plan = plan
        }
    }

    private func record(_ resolution: Resolution) {
        resolutions[resolution.key] = resolution
        made.append(resolution)
        remember(resolution)
    }

    private func remember(_ resolution: Resolution) {
        recent.store(resolution, at: resolution.key.recentIndex(of: recent.count))
    }

    /// Interns `keyPath` and returns what is known of it: one atomic load for a literal seen before.
    func resolve(_ keyPath: AnyKeyPath, rootType: AnyClass) -> (keyPath: InternedKeyPath, slotOffset: Int?) {
        let key = ResolutionKey(keyPath: ObjectIdentifier(keyPath), rootType: ObjectIdentifier(rootType))
        // Only interned objects are ever remembered, so a match means `keyPath` is interned.
        let cached = recent.withObject(at: key.recentIndex(of: recent.count)) { resolution in
            resolution.key == key ? (true, resolution.slotOffset) : (false, nil)
        }
        if let cached, cached.0 { return (InternedKeyPath(interned: keyPath), cached.1) }
        let known = lock.withLock { () -> Resolution? in
            guard let known = resolutions[key] else { return nil }
            remember(known)
            return known
        }
        if let known { return (InternedKeyPath(interned: known.keyPath), known.slotOffset) }
        let interned = KeyPathTable.shared.intern(keyPath)
        let internedKey = ResolutionKey(keyPath: ObjectIdentifier(interned.object), rootType: key.rootType)
        return lock.withLock {
            if let known = resolutions[internedKey] { return (interned, known.slotOffset) }
            record(Resolution(key: internedKey, keyPath: interned.object, slotOffset: nil))
            return (interned, nil)
        }
    }

    /// What is known of `keyPath` on `rootType`, without recording anything: `.some(nil)` for a path,
    /// `nil` when never resolved. For descriptions.
    func knownSlotOffset(_ keyPath: AnyKeyPath, rootType: AnyClass) -> Int?? {
        guard let interned = KeyPathTable.shared.existing(keyPath) else { return nil }
        let key = ResolutionKey(keyPath: ObjectIdentifier(interned), rootType: ObjectIdentifier(rootType))
        return lock.withLock { resolutions[key].map(\.slotOffset) }
    }

    /// The plan of `keyPath` on `rootType`, made by `make` (no user code: under the lock) the first time.
    private func plan(_ keyPath: InternedKeyPath, rootType: AnyClass, make: () -> PathPlan) -> PathPlan {
        let key = ResolutionKey(keyPath: ObjectIdentifier(keyPath.object), rootType: ObjectIdentifier(rootType))
        let cached = recent.withObject(at: key.recentIndex(of: recent.count)) { resolution in
            resolution.key == key ? resolution.plan : nil
        }
        if let cached = cached ?? nil { return cached }
        return lock.withLock {
            let known = resolutions[key]
            if let known, let plan = known.plan {
                remember(known)
                return plan
            }
            let plan = make()
            record(Resolution(key: key, keyPath: keyPath.object, slotOffset: known?.slotOffset ?? nil, plan: plan))
            return plan
        }
    }

    /// The plan of `keyPath` on `rootType`, made by `make` if there is none. Not a static method of
    /// `TypedPathPlan`, which looked up generic metadata at every registration; `make` is a function so
    /// that a registration that finds the plan allocates none of its closures.
    func typedPlan<Root: AnyObject, Value>(
        _ keyPath: InternedKeyPath, rootType: AnyClass, make: () -> TypedPathPlan<Root, Value>
    ) -> TypedPathPlan<Root, Value> {
        unsafeDowncast(plan(keyPath, rootType: rootType, make: make), to: TypedPathPlan<Root, Value>.self)
    }

    func existingPlan(_ keyPath: InternedKeyPath, rootType: AnyClass) -> PathPlan? {
        let key = ResolutionKey(keyPath: ObjectIdentifier(keyPath.object), rootType: ObjectIdentifier(rootType))
        return lock.withLock { resolutions[key]?.plan }
    }

    func setDirectSlot(_ offset: Int, for keyPath: InternedKeyPath, rootType: AnyClass) {
        let key = ResolutionKey(keyPath: ObjectIdentifier(keyPath.object), rootType: ObjectIdentifier(rootType))
        lock.withLock {
            record(Resolution(key: key, keyPath: keyPath.object, slotOffset: offset, plan: resolutions[key]?.plan))
        }
    }

    /// Interned key paths, by identity, known to force-unwrap or not. Guarded by `lock`.
    @exclusivity(unchecked) private var unwrapping: [ObjectIdentifier: Bool] = [:]

    func forceUnwraps(_ keyPath: InternedKeyPath) -> Bool {
        let id = ObjectIdentifier(keyPath.object)
        if let known = lock.withLock({ unwrapping[id] }) { return known }
        let found = Self.forceUnwraps(keyPath.object.debugDescription)
        lock.withLock { unwrapping[id] = found }
        return found
    }

    static func forceUnwraps(_ description: String) -> Bool {
        var depth = 0
        for character in description {
            switch character {
            case "<": depth += 1
            case ">": depth = max(depth - 1, 0)
            case "!" where depth == 0: return true
            default: break
            }
        }
        return false
    }
}

/// What every observation of one key path on one root class shares, made by the first and kept
/// for ever, so observations refer to it without reference counting. Equal key paths have equal
/// types, so its functions serve every observation of it.
@usableFromInline
class PathPlan: @unchecked Sendable {  // immutable but for what it learns, set once (`OnceReference`)
    @usableFromInline let keyPath: InternedKeyPath
    /// Whether `leafDelivery` is the path's (a string key path has none).
    let hasLeafDelivery: Bool
    /// Delivers a change of a proven path's last property; does nothing without `hasLeafDelivery`.
    let leafDelivery: LeafDelivery
    let storedPath = OnceReference<StoredPath>()
    /// How the path's value is made from its last property's, once a proof gives it.
    let provenLeaf = OnceReference<LeafConversion>()
    /// Whether the path's value is a collection whose in-place changes have a kind and indexes.
    let describesCollectionChanges: Bool
    /// What its observations' re-wires reuse, once one has run (see `spares`).
    private let madeSpares = OnceReference<RewireSpares>()

    init(keyPath: InternedKeyPath, leafDelivery: LeafDelivery?, valueType: Any.Type) {
        self.keyPath = keyPath
        self.describesCollectionChanges = CollectionMutation.describesChanges(of: valueType)
        // `if let`, not `??`, which returned the function through a thunk allocating at every change.
        if let leafDelivery {
            self.hasLeafDelivery = true
            self.leafDelivery = leafDelivery
        } else {
            self.hasLeafDelivery = false
            self.leafDelivery = Self.noDelivery
        }
    }

    /// What its observations' re-wires reuse, made by the first.
    var spares: Unmanaged<RewireSpares> {
        if let made = madeSpares.unmanaged { return made }
        madeSpares.storeIfNil(RewireSpares())
        return madeSpares.unmanaged.unsafelyUnwrapped
    }

    /// The leaf conversion learnt; only for a leaf link, made after its path learnt one.
    var leaf: Unmanaged<LeafConversion> {
        provenLeaf.unmanaged.unsafelyUnwrapped
    }

    /// Never asked for a re-wire's delivery (which must destroy the old value): a re-wire from the
    /// setter's values needs a leaf delivery (`PathObservation.register`).
    private static var noDelivery: LeafDelivery {
        LeafDelivery(leaf: { _, _, _, _, _, _ in }, evaluated: { _, _, _, _, _ in }, rewired: { _, _, _, _ in })
    }
}

/// A plan with its path's evaluation, typed; run with tracking, its reads are the dependencies.
final class TypedPathPlan<Root: AnyObject, Value>: PathPlan, @unchecked Sendable {
    let evaluate: (Root) -> Value

    init(keyPath: InternedKeyPath, evaluate: @escaping (Root) -> Value, leafDelivery: LeafDelivery?) {
        self.evaluate = evaluate
        super.init(keyPath: keyPath, leafDelivery: leafDelivery, valueType: Value.self)
    }
}
