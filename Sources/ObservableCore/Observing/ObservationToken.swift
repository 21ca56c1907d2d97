/// An observation that lasts as long as this token: cancel it, or let it go, to stop observing.
///
/// Like `NSKeyValueObservation`: it holds neither the observed object nor the observer, and
/// `cancel()` is idempotent, callable from any thread or callback; after it returns no new callback
/// starts. The observation also ends when the observed object is deallocated.
public final class ObservationToken: Hashable, @unchecked Sendable {
    // The observed side owns the observation, so what its handler captured is freed with the observed
    // object. `unowned`, not `weak` (a side table each): it keeps the memory, read as `Unmanaged`.
    /// Keeps the observation's memory allocated; read through `observation` only.
    private unowned let memory: AnyObservation

    /// The observation, possibly deinitialised: only its `state` is read before a claim succeeds.
    ///
    /// Assumes `memory` is the only stored property and an `unowned` reference's storage is the
    /// object's address. Proved by `TokenLayoutTests`, in a release build.
    private var observation: Unmanaged<AnyObservation> {
        Unmanaged.fromOpaque(_getUnsafePointerToStoredProperties(self).load(as: UnsafeRawPointer.self))
    }

    @usableFromInline
    init(_ observation: borrowing AnyObservation) {
        self.memory = copy observation
    }

    /// The address the token reads its observation at, for `TokenLayoutTests`.
    var observationAddress: UnsafeMutableRawPointer { observation.toOpaque() }

    deinit {
        cancel()
    }

    /// Ends the observation. Calling it again, or after the observed object died, does nothing.
    // Reading the stored property through the token's address lets no token escape: it may stay on the stack.
    @_effects(notEscapingself)
    public func cancel() {
        let observation = self.observation
        guard observation._withUnsafeGuaranteedRef({ $0.claimCancel() }) else { return }
        // Claimed: alive until `finishCancel` clears the claim, and retained before that.
        let retained = observation.retain()
        retained._withUnsafeGuaranteedRef { $0.finishCancel() }
        retained.release()
    }

    /// `true` until the observation is cancelled or its object deallocated; `false` from the start
    /// when the key path reads no `@Observed` property.
    public var isActive: Bool {
        @_effects(notEscapingself)
        get {
            observation._withUnsafeGuaranteedRef { $0.isActive }
        }
    }

    /// Keeps the token in `set`; the observation lasts until the token is removed from it.
    public func store(in set: inout Set<ObservationToken>) {
        set.insert(self)
    }

    /// Keeps the token in `array`; the observation lasts until the token is removed from it.
    public func store(in array: inout [ObservationToken]) {
        array.append(self)
    }

    /// Tokens are equal only when they are the same token (identity).
    public static func == (lhs: ObservationToken, rhs: ObservationToken) -> Bool {
        lhs === rhs
    }

    /// Hashes the token's identity, so tokens can be kept in a `Set`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
