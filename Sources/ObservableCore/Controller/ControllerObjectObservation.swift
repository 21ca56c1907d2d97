/// Observing every property of an object through a controller, as a token does with
/// `observeProperties`.
extension ObservationController {
    /// Observes every `@Observed` property of `object`, as
    /// ``ObservedPropertyListing/observeProperties(options:_:)`` does, calling `handler` with the
    /// observer too. Observing again replaces it; key path observations are apart.
    public func observeProperties<Object: ObservedPropertyListing>(
        of object: Object,
        options: PropertyObservationOptions = [.old, .new],
        _ handler: @escaping (Observer, Object, PropertyChange) -> Void
    ) {
        observeProperties(of: object, options: options, deep: false, handler)
    }

    /// The same, and with `deep: true` every object it reaches. Observing again replaces it.
    public func observeProperties<Object: ObservedPropertyListing>(
        of object: Object,
        options: PropertyObservationOptions = [.old, .new],
        deep: Bool,
        _ handler: @escaping (Observer, Object, PropertyChange) -> Void
    ) {
        let registration = ControllerHandler(
            objectID: ObjectIdentifier(object), stringKey: nil,
            keyPath: InternedKeyPath(ControllerKey.everyPropertyKeyPath), options: options.observationOptions,
            observer: observerReference, handler: handler)
        register(object, registration) {
            ObjectObservations.register(
                object, options: options, deep: deep, origin: .controller,
                onObservedDeallocated: registration.deallocationHook
            ) { object, change in
                registration.deliver(object, change)
            }
        }
    }

    /// Observes every `@Observed` property of `object`, calling a method of the observer.
    public func observeProperties<Object: ObservedPropertyListing>(
        of object: Object,
        options: PropertyObservationOptions = [.old, .new],
        action: @escaping (Observer) -> (Object, PropertyChange) -> Void
    ) {
        observeProperties(of: object, options: options) { observer, object, change in
            action(observer)(object, change)
        }
    }

    /// Ends the observation of every property of `object`, if there is one; its key paths'
    /// observations stay.
    public func unobserveProperties(of object: AnyObject) {
        unobserve(object, .everyProperty)
    }

    /// Whether the controller has a live observation of every property of `object`.
    public func isObservingProperties(of object: AnyObject) -> Bool {
        isObserving(object, .everyProperty)
    }
}

extension ObservationController {
    /// Unavailable for a class that `@KeyValueObservable` does not list: whole-object observation
    /// finds the properties in its list.
    @available(
        *, unavailable,
        message:
            "observeProperties finds properties in the list @KeyValueObservable writes: mark the class @KeyValueObservable"
    )
    public func observeProperties<Object: KeyValueObservable>(
        of object: Object, options: PropertyObservationOptions = [.old, .new], deep: Bool = false,
        _ handler: @escaping (Observer, Object, PropertyChange) -> Void
    ) {
        fatalError("unavailable")
    }

    /// Unavailable for a class that `@KeyValueObservable` does not list.
    @available(
        *, unavailable,
        message:
            "observeProperties finds properties in the list @KeyValueObservable writes: mark the class @KeyValueObservable"
    )
    public func observeProperties<Object: KeyValueObservable>(
        of object: Object, options: PropertyObservationOptions = [.old, .new],
        action: @escaping (Observer) -> (Object, PropertyChange) -> Void
    ) {
        fatalError("unavailable")
    }
}
