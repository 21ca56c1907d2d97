import Synchronization

/// A reference set at most once and then read for ever, without a lock and without reference
/// counting: what a path's plan learns from the first proof of its path (its stored path, its leaf
/// conversion).
///
/// Assumes that its owner lives at least as long as every reader of the object it holds: it owns
/// that object (a store retains it, `deinit` releases it), and a load hands it out unretained. Its
/// owner, a `PathPlan`, lives for the rest of the process. A store publishes the object's
/// initialisation (releasing; loads are acquiring). Proved by `StoredPathTests` and the re-wiring
/// tests of `ConcurrencyTests` under ThreadSanitizer, and by the proofs racing in
/// `ProofEquivalenceTests` under AddressSanitizer.
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
