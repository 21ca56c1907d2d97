/// String key paths on the controller, as tokens have them (`observe(keyPath:options:_:)`): KVOController's
/// users port their string key paths as they were.
extension ObservationController {
    /// Observes a string key path of `object` (`"address.city"`), as
    /// ``ObservedPropertyListing/observe(keyPath:options:_:)`` does. Observing the same string again
    /// replaces it; a string and a typed key path are two observations.
    ///
    /// - Throws: ``StringKeyPathError`` naming the offending component; nothing is observed then.
    public func observe<Object: ObservedPropertyListing>(
        _ object: Object,
        keyPath: String,
        options: ObservationOptions = [.old, .new],
        _ handler: @escaping (Observer, Object, KeyedChange) -> Void
    ) throws(StringKeyPathError) {
        let path = try StringKeyPath(keyPath, rootType: type(of: object))
        let standIn = path.standIn(for: Object.self)
        let registration = ControllerHandler(
            objectID: ObjectIdentifier(object), stringKey: keyPath, keyPath: standIn.keyPath,
            options: options, observer: observerReference, handler: handler)
        register(object, registration) {
            path.observe(
                object, standIn: standIn, options: options, origin: .controller,
                onObservedDeallocated: registration.deallocationHook
            ) { object, change in
                registration.deliver(object, change)
            }
        }
    }

    /// Observes a string key path of `object`, calling a method of the observer.
    public func observe<Object: ObservedPropertyListing>(
        _ object: Object,
        keyPath: String,
        options: ObservationOptions = [.old, .new],
        action: @escaping (Observer) -> (Object, KeyedChange) -> Void
    ) throws(StringKeyPathError) {
        try observe(object, keyPath: keyPath, options: options) { observer, object, change in
            action(observer)(object, change)
        }
    }

    /// Ends the observation of the string `keyPath` on `object`, if there is one.
    public func unobserve(_ object: AnyObject, keyPath: String) {
        unobserve(object, .string(keyPath))
    }

    /// Whether the controller has a live observation of the string key path `keyPath` on `object`.
    public func isObserving(_ object: AnyObject, keyPath: String) -> Bool {
        isObserving(object, .string(keyPath))
    }
}

extension ObservationController {
    /// Unavailable for a class that `@KeyValueObservable` does not list: string keys find properties
    /// in its list.
    @available(
        *, unavailable,
        message:
            "a string key path finds properties in the list @KeyValueObservable writes: mark the class @KeyValueObservable"
    )
    public func observe<Object: KeyValueObservable>(
        _ object: Object, keyPath: String, options: ObservationOptions = [.old, .new],
        _ handler: @escaping (Observer, Object, KeyedChange) -> Void
    ) throws(StringKeyPathError) {
        fatalError("unavailable")
    }

    /// Unavailable for a class that `@KeyValueObservable` does not list.
    @available(
        *, unavailable,
        message:
            "a string key path finds properties in the list @KeyValueObservable writes: mark the class @KeyValueObservable"
    )
    public func observe<Object: KeyValueObservable>(
        _ object: Object, keyPath: String, options: ObservationOptions = [.old, .new],
        action: @escaping (Observer) -> (Object, KeyedChange) -> Void
    ) throws(StringKeyPathError) {
        fatalError("unavailable")
    }
}
