extension KeyValueObservable {
    /// Observes the value at `keyPath`, calling `handler` on an actor (`MainActor.shared` for UI code,
    /// or `#isolation`): changes made on that actor are delivered at once, others later on it, in
    /// order. After `cancel()` returns nothing more is delivered; the observation keeps its actor
    /// alive until it ends. Values must be `Sendable` (<doc:SequencesAndActors>).
    ///
    /// - Parameters:
    ///   - keyPath: What to observe, rooted at this object.
    ///   - options: What each ``ObservedChange`` carries; `.initial` is delivered before this returns.
    ///   - isolation: The actor the handler runs on; `nil` for the setting thread.
    ///   - handler: Called on `isolation` with each change.
    /// - Returns: The token that keeps the observation alive.
    @inlinable
    public func observe<Value: Sendable>(
        _ keyPath: KeyPath<Self, Value>,
        options: ObservationOptions = [.old, .new],
        isolation: isolated (any Actor)?,
        _ handler: @escaping (ObservedChange<Value>) -> Void
    ) -> ObservationToken {
        // Inlinable so that the delivery and the notify functions are compiled for the concrete Value.
        guard isolation != nil else {
            return observe(keyPath, options: options) { _, change in handler(change) }
        }
        let delivery = ActorDelivery.make(isolation: isolation, handler: handler)
        let source = Registration.register(
            self, keyPath, options: options, origin: .actor, onObservedDeallocated: { delivery.sourceDidEnd() },
            handler: { _, change in delivery.enqueue(change) })
        delivery.attach(ObservationToken(source), sourceIsActive: source.isActive)
        return ObservationToken(delivery)
    }
}
