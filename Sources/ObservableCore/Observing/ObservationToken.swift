/// An observation that lasts as long as this token: cancel it, or let it go, to stop observing.
///
/// Like `NSKeyValueObservation` and `AnyCancellable`: the token holds neither the observed object nor
/// the observer, `cancel()` is idempotent and may be called from
/// any thread or from inside any callback, and the token's `deinit` cancels. After `cancel()`
/// returns no new callback of the observation starts; one already running on another thread
/// finishes. When the observed object is deallocated the observation ends by itself and
/// ``isActive`` becomes `false`.
///
/// ```swift
/// var tokens = Set<ObservationToken>()
/// person.observe(\.name) { _, change in print(change.newValue!) }.store(in: &tokens)
/// tokens.removeAll()   // ends the observation
/// ```
public final class ObservationToken: Hashable, @unchecked Sendable {
    // The observed side owns the observation (its property lists hold it, as Cocoa's observation
    // info does); the token only refers to it. So when the observed object is deallocated the
    // observation and everything its handler captured are freed, even while the token lives on:
    // a handler that captures the token's owner does not keep it alive past the observed object.
    //
    // Not a `weak` reference, which allocates a side table per observation: the token keeps the
    // observation's memory, never its contents, and retains it only
    // after claiming it (see `AnyObservation`).
    //
    // One word, so that a token stays in the smallest chunk (`PathObservationLayoutTests`): the `unowned` reference keeps the
    // observation's memory allocated, and its storage, the observation's address, is read as an
    // unmanaged reference (`observation`): loading the unowned reference itself would trap once the
    // observation has been deinitialised, which is when a token still looks at its `state`.
    // `@_effects(notEscaping self)` below tells the optimiser that reading the stored property through
    // the token's address does not let the token escape, so a local token can live on the stack.
    /// Keeps the observation's memory allocated; read through `observation` only.
    private unowned let memory: AnyObservation

    /// The observation, possibly deinitialised: only its `state` is read before a claim succeeds.
    ///
    /// Assumes that `memory` is the token's only stored property and that the storage of an
    /// `unowned` reference to a native Swift class is the object's address. Proved, in a release
    /// build as `.ci/run` runs it, by `TokenLayoutTests`.
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
    // The token's address is taken only to read its stored property (see `observation`): declared,
    // so that a token that does not escape its caller can still live on the caller's stack.
    @_effects(notEscapingself)
    public func cancel() {
        let observation = self.observation
        guard observation._withUnsafeGuaranteedRef({ $0.claimCancel() }) else { return }
        // Claimed: alive until `finishCancel` clears the claim, and retained before that.
        let retained = observation.retain()
        retained._withUnsafeGuaranteedRef { $0.finishCancel() }
        retained.release()
    }

    /// `true` until the observation is cancelled or its observed object is deallocated; `false` from
    /// the start when the key path reads no `@Observed` property (nothing could ever notify).
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
