extension ObservedPropertyListing {
    /// Observes every `@Observed` property of this object at once, its superclasses' and
    /// subclasses' included, each as ``KeyValueObservable/observe(_:options:_:)`` would; each change
    /// names the property and carries its values as `Any` (<doc:ObservingWholeObjects>).
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

    /// ``observeProperties(options:_:)``, told when `self` is deallocated as
    /// ``KeyValueObservable/observe(_:options:_:onObservedDeallocated:)`` is.
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
    /// ``observeProperties(options:_:)``, and with `deep: true` also every object this one strongly
    /// reaches, followed as they change; each change says where it happened
    /// (``PropertyChange/path``). <doc:ObservingWholeObjects> has the details.
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

    /// ``observeProperties(options:deep:_:)``, told when this object is deallocated.
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

/// How every observation of a whole object, or of a graph, starts.
enum ObjectObservations {
    static func register<Root: AnyObject>(
        _ root: Root, options: PropertyObservationOptions, deep: Bool = false, origin: ObservationOrigin,
        watchesSetExtent: Bool = false, onObservedDeallocated: DeallocationHook?,
        _ handler: @escaping (Root, PropertyChange) -> Void
    ) -> AnyObservation {
        register(
            root as AnyObject, options: options, deep: deep, origin: origin, watchesSetExtent: watchesSetExtent,
            onObservedDeallocated: onObservedDeallocated
        ) { object, change in
            handler(unsafeDowncast(object, to: Root.self), change)
        }
    }

    /// `register` with a handler that takes the root as an object: called directly, not through a
    /// closure that casts it.
    static func register(
        _ root: AnyObject, options: PropertyObservationOptions, deep: Bool = false, origin: ObservationOrigin,
        watchesSetExtent: Bool = false, onObservedDeallocated: DeallocationHook?,
        _ handler: @escaping (AnyObject, PropertyChange) -> Void
    ) -> AnyObservation {
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
    /// Unavailable without the list `@KeyValueObservable` writes.
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
