extension ObservedPropertyListing {
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
    /// The semantics are those of ``KeyValueObservable/observe(_:options:_:)`` for each property: every set notifies,
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
    /// does, and is told when `self` is deallocated, as ``KeyValueObservable/observe(_:options:_:onObservedDeallocated:)``
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

extension ObservedPropertyListing {
    /// Observes every `@Observed` property of this object as ``observeProperties(options:_:)``
    /// does, and with `deep: true` every `@Observed` property of every object it reaches: through
    /// properties holding `KeyValueObservable` objects, or optionals, arrays, sets or dictionaries
    /// of them.
    ///
    /// ```swift
    /// let token = book.observeProperties(deep: true) { book, change in
    ///     print(change.path, change.oldValue as Any, "->", change.newValue as Any)   // chapters[2].title …
    /// }
    /// ```
    ///
    /// The graph follows the objects as they change: an object added to `chapters` is observed from
    /// then on, one removed is not (unless the graph still reaches it another way). Each object is
    /// observed once, however many ways reach it (shared objects, cycles). Only strong references
    /// are followed: a `weak` or `unowned` property (a parent, an owner) is observed, but the object
    /// it refers to is not added. Each change says where it happened (``PropertyChange/path``,
    /// ``PropertyChange/object``); the handler is given this object, the root.
    ///
    /// The observation ends when the token is cancelled or released, or when this object is
    /// deallocated; the objects of the graph are not kept alive by it.
    ///
    /// - Parameters:
    ///   - options: What each ``PropertyChange`` carries and when it is sent; `[.old, .new]` by default.
    ///   - deep: Whether the objects this one reaches are observed too.
    ///   - handler: Called with this object and the change.
    /// - Returns: The token that keeps the observation alive.
    public func observeProperties(
        options: PropertyObservationOptions = [.old, .new],
        deep: Bool,
        _ handler: @escaping (Self, PropertyChange) -> Void
    ) -> ObservationToken {
        ObservationToken(
            ObjectObservations.register(
                self, options: options, deep: deep, origin: .token, onObservedDeallocated: nil, handler))
    }

    /// Observes every `@Observed` property of this object, and with `deep: true` of every object it
    /// reaches, as ``observeProperties(options:deep:_:)`` does, and is told when this object is
    /// deallocated, as ``KeyValueObservable/observe(_:options:_:onObservedDeallocated:)`` is.
    ///
    /// - Parameters:
    ///   - options: What each ``PropertyChange`` carries and when it is sent; `[.old, .new]` by default.
    ///   - deep: Whether the objects this one reaches are observed too.
    ///   - handler: Called with this object and the change.
    ///   - onObservedDeallocated: Called once when this object is deallocated while observed.
    /// - Returns: The token that keeps the observation alive.
    public func observeProperties(
        options: PropertyObservationOptions = [.old, .new],
        deep: Bool,
        _ handler: @escaping (Self, PropertyChange) -> Void,
        onObservedDeallocated: @escaping () -> Void
    ) -> ObservationToken {
        nonisolated(unsafe) let ended = onObservedDeallocated
        return ObservationToken(
            ObjectObservations.register(
                self, options: options, deep: deep, origin: .token, onObservedDeallocated: { ended() }, handler))
    }
}

/// How every observation of a whole object, or of a graph, starts (the token's, the controller's,
/// the sequence's, an editor's).
enum ObjectObservations {
    static func register<Root: AnyObject>(
        _ root: Root, options: PropertyObservationOptions, deep: Bool = false, origin: ObservationOrigin,
        watchesSetExtent: Bool = false, onObservedDeallocated: DeallocationHook?,
        _ handler: @escaping (Root, PropertyChange) -> Void
    ) -> AnyObservation {
        let handler: (AnyObject, PropertyChange) -> Void = { object, change in
            handler(unsafeDowncast(object, to: Root.self), change)
        }
        if deep {
            let graph = GraphObservation(
                of: root, options: options.observationOptions, origin: origin, watchesSetExtent: watchesSetExtent,
                onObservedDeallocated: onObservedDeallocated, handler: handler)
            graph.start()
            return graph
        }
        let observation = ObjectObservation(
            of: root, options: options.observationOptions, origin: origin, watchesSetExtent: watchesSetExtent,
            onObservedDeallocated: onObservedDeallocated, handler: handler)
        observation.register(root)
        return observation
    }
}

extension KeyValueObservable {
    /// Unavailable for a class that `@KeyValueObservable` does not list: whole-object observation
    /// finds the properties in its list.
    @available(
        *, unavailable,
        message:
            "observeProperties finds properties in the list @KeyValueObservable writes: mark the class @KeyValueObservable"
    )
    public func observeProperties(
        options: PropertyObservationOptions = [.old, .new], deep: Bool = false,
        _ handler: @escaping (Self, PropertyChange) -> Void, onObservedDeallocated: (() -> Void)? = nil
    ) -> ObservationToken {
        fatalError("unavailable")
    }
}
