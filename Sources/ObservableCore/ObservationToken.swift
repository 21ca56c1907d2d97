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
    // Written only in `init`. `weak let` (Swift 6.2) initialises the reference once; a `weak var` is
    // first set to `nil` and then assigned.
    #if compiler(>=6.2)
    private weak let observation: (any ObservationCore)?
    #else
    private weak var observation: (any ObservationCore)?
    #endif

    @usableFromInline
    init(_ observation: any ObservationCore) {
        self.observation = observation
    }

    deinit {
        observation?.cancel()
    }

    /// Ends the observation. Calling it again, or after the observed object died, does nothing.
    public func cancel() {
        observation?.cancel()
    }

    /// `true` until the observation is cancelled or its observed object is deallocated; `false` from
    /// the start when the key path reads no `@Observed` property (nothing could ever notify).
    public var isActive: Bool {
        observation?.isActive ?? false
    }

    /// Keeps the token in `set`; the observation lasts until the token is removed from it.
    public func store(in set: inout Set<ObservationToken>) {
        set.insert(self)
    }

    /// Keeps the token in `array`; the observation lasts until the token is removed from it.
    public func store(in array: inout [ObservationToken]) {
        array.append(self)
    }

    public static func == (lhs: ObservationToken, rhs: ObservationToken) -> Bool {
        lhs === rhs
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
