extension KeyValueObservable {
    /// Observes every `@Observed` property of this object at once: its class's, its superclasses'
    /// and, for an object of a subclass, the subclass's own. Each change says which property
    /// changed, with its key path and name, and carries the old and new values as `Any`.
    ///
    /// ```swift
    /// let token = document.observeProperties { document, change in
    ///     print(change.name, change.oldValue as Any, "->", change.newValue as Any)
    /// }
    /// document.title = "Draft"   // prints "title Optional("") -> Optional("Draft")"
    /// ```
    ///
    /// The semantics are those of ``observe(_:options:_:)`` for each property: every set notifies,
    /// synchronously on the setting thread, in the order of the property's observers; an
    /// `@Observed` array mutated in place says what it did (``PropertyChange/kind``,
    /// ``PropertyChange/indexes``). A set of a property costs what a set with one more observer
    /// costs; a property or an object nobody observes this way costs nothing more.
    ///
    /// The observation holds neither the observer nor `self`, and ends when the token is cancelled
    /// or released, or when `self` is deallocated. An object with no `@Observed` property gives an
    /// inactive token (a debug build says so on standard error).
    ///
    /// - Parameters:
    ///   - options: What each ``PropertyChange`` carries and when it is sent; `[.old, .new]` by default.
    ///   - handler: Called with this object and the change.
    /// - Returns: The token that keeps the observation alive.
    public func observeProperties(
        options: PropertyObservationOptions = [.old, .new],
        _ handler: @escaping (Self, PropertyChange) -> Void
    ) -> ObservationToken {
        ObservationToken(
            ObjectObservations.register(self, options: options, origin: .token, onObservedDeallocated: nil, handler))
    }

    /// Observes every `@Observed` property of this object as ``observeProperties(options:_:)``
    /// does, and is told when `self` is deallocated, as ``observe(_:options:_:onObservedDeallocated:)``
    /// is: once, after the last change, never after the token's `cancel()` has returned.
    ///
    /// - Parameters:
    ///   - options: What each ``PropertyChange`` carries and when it is sent; `[.old, .new]` by default.
    ///   - handler: Called with this object and the change.
    ///   - onObservedDeallocated: Called once when this object is deallocated while observed.
    /// - Returns: The token that keeps the observation alive.
    public func observeProperties(
        options: PropertyObservationOptions = [.old, .new],
        _ handler: @escaping (Self, PropertyChange) -> Void,
        onObservedDeallocated: @escaping () -> Void
    ) -> ObservationToken {
        // Called on the thread that releases `self`, as `handler` is on the setting thread.
        nonisolated(unsafe) let ended = onObservedDeallocated
        return ObservationToken(
            ObjectObservations.register(
                self, options: options, origin: .token, onObservedDeallocated: { ended() }, handler))
    }
}

/// How every observation of a whole object starts (the token's, the controller's, the sequence's).
enum ObjectObservations {
    static func register<Root: AnyObject>(
        _ root: Root, options: PropertyObservationOptions, origin: ObservationOrigin, watchesSetExtent: Bool = false,
        onObservedDeallocated: DeallocationHook?, _ handler: @escaping (Root, PropertyChange) -> Void
    ) -> ObjectObservation {
        let observation = ObjectObservation(
            of: root, options: options.observationOptions, origin: origin, watchesSetExtent: watchesSetExtent,
            onObservedDeallocated: onObservedDeallocated,
            handler: { object, change in handler(unsafeDowncast(object, to: Root.self), change) })
        observation.register(root)
        return observation
    }
}
