import Synchronization

/// A reference set at most once, then read unretained without a lock. Assumes its owner (a
/// `PathPlan`, immortal) outlives every reader. Proved by `StoredPathTests`, `ConcurrencyTests`
/// (TSan) and `ProofEquivalenceTests` (ASan).
struct OnceReference<Object: AnyObject>: ~Copyable, @unchecked Sendable {
    private let stored = Atomic<Unmanaged<Object>?>(nil)

    init() {}

    deinit {
        stored.load(ordering: .acquiring)?.release()
    }

    /// The object, unretained; `nil` until one is stored.
    var unmanaged: Unmanaged<Object>? {
        stored.load(ordering: .acquiring)
    }

    func load() -> Object? {
        unmanaged?.takeUnretainedValue()
    }

    /// Stores `object` unless an object is stored already (then `object` is left alone).
    func storeIfNil(_ object: Object) {
        guard stored.load(ordering: .acquiring) == nil else { return }
        let retained = Unmanaged.passRetained(object)
        if !stored.compareExchange(expected: nil, desired: retained, ordering: .acquiringAndReleasing).exchanged {
            retained.release()
        }
    }
}
