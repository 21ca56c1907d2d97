/// What every observation of one key path on one root class shares: the key path its changes carry,
/// how to evaluate it, its leaf delivery, and its stored path once a proof gives one (`PathProof`).
/// Made by the first registration of the key path on the class and kept by `KeyPathResolutions`
/// (`typedPlan`) for the rest of the process, so a path observation refers to it without
/// reference counting and keeps only what is its own.
///
/// Equal key paths have equal types, so every observation of one plan has the same `Root` and
/// `Value`, and the plan's functions, made by whichever registration came first, serve them all.
@usableFromInline
class PathPlan: @unchecked Sendable {  // immutable but for what it learns, set once (`OnceReference`)
    @usableFromInline let keyPath: InternedKeyPath
    /// Whether `leafDelivery` is the path's: a typed key path's, made where `observe` was called; a
    /// string key path has none.
    let hasLeafDelivery: Bool
    /// Delivers a change of a proven path's last property (see `LeafDelivery`); a function that
    /// does nothing without `hasLeafDelivery`. Not optional: see `init`.
    let leafDelivery: LeafDelivery
    /// The path read through its stored fields, once a proof on this class gives it.
    let storedPath = OnceReference<StoredPath>()
    /// How the path's value is made from its last property's, once a proof on this class gives it:
    /// the same for every proof of one plan (it depends on the key path's types only).
    let provenLeaf = OnceReference<LeafConversion>()

    init(keyPath: InternedKeyPath, leafDelivery: LeafDelivery?) {
        self.keyPath = keyPath
        // Unwrapped with `if let`: `??` returns the function at its generic abstraction, and calling
        // it then went through a thunk that allocated a context for `wrap` at every change.
        if let leafDelivery {
            self.hasLeafDelivery = true
            self.leafDelivery = leafDelivery
        } else {
            self.hasLeafDelivery = false
            self.leafDelivery = Self.noDelivery
        }
    }

    /// The leaf conversion learnt; only for a leaf link, made after its path learnt one.
    var leaf: Unmanaged<LeafConversion> {
        provenLeaf.unmanaged.unsafelyUnwrapped
    }

    private static func noDelivery(_: AnyObject, _: BorrowedValue, _: BorrowedValue, _: LeafWrap, _: Bool) {}
}

/// A plan with its path's evaluation, typed: `root[keyPath: keyPath]`, or a string path's
/// resolution. Run with tracking, every `@Observed` property it reads is a dependency.
final class TypedPathPlan<Root: AnyObject, Value>: PathPlan, @unchecked Sendable {
    let evaluate: (Root) -> Value

    init(keyPath: InternedKeyPath, evaluate: @escaping (Root) -> Value, leafDelivery: LeafDelivery?) {
        self.evaluate = evaluate
        super.init(keyPath: keyPath, leafDelivery: leafDelivery)
    }
}
