extension KeyValueObservable {
    /// Observes the value at `keyPath`, calling `handler` on an actor: the main actor for UI code, or
    /// any other. Changes made on that actor are delivered at once, synchronously, as by
    /// ``observe(_:options:_:)``; changes made on other threads are delivered later on the actor, in
    /// the order they were made.
    ///
    /// ```swift
    /// @MainActor final class NameLabel {
    ///     var text = ""
    ///     var token: ObservationToken?
    ///
    ///     func show(_ person: Person) {
    ///         token = person.observe(\.name, isolation: MainActor.shared) { [weak self] change in
    ///             self?.text = change.newValue ?? ""   // on the main actor, whoever set the name
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// Pass `#isolation` to deliver wherever the caller is isolated; from code isolated to no actor
    /// that is `nil`, and the handler is called on the setting thread like ``observe(_:options:_:)``'s.
    ///
    /// - Ordering: every change is delivered, in the order the observation was told of it, and each
    ///   call returns before the next begins. A change made by a handler (a set on the actor, during
    ///   a delivery) is delivered after that handler returns, not inside it.
    /// - Cancelling: after ``ObservationToken/cancel()`` returns, no change is delivered, including
    ///   changes made before and still waiting for the actor.
    /// - End: when the observed object is deallocated, the changes made before are still delivered;
    ///   then the observation ends and ``ObservationToken/isActive`` becomes `false`.
    /// - Lifetimes: as ``observe(_:options:_:)``'s, except that the observation keeps its actor
    ///   alive until it ends, as a task isolated to that actor would. So an actor that observes with
    ///   `isolation: self` ends the observation with `cancel()`: its `deinit` cannot run before.
    /// - Synchronous delivery: on the main actor, a change made on the main thread. On another actor,
    ///   a change made by code isolated to it, which the runtime tells through `Task.immediate`
    ///   (Swift 6.2; on older Apple systems such changes are delivered by a job, later).
    ///
    /// The values must be `Sendable`: they are made on the setting thread and read on the actor. The
    /// handler is given the change only, not the observed object, which need not be `Sendable` and
    /// may be gone by the time a late change is delivered: capture what it needs.
    ///
    /// - Parameters:
    ///   - keyPath: What to observe, rooted at this object: one `@Observed` property, a path, or a
    ///     computed property, as for ``observe(_:options:_:)``.
    ///   - options: What each ``ObservedChange`` carries and when it is sent; `[.old, .new]` by
    ///     default. `.initial` is delivered before this function returns.
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
