/// String key paths on the controller, as tokens have them (`observe(keyPath:options:_:)`): KVOController's
/// users port their string key paths as they were.
extension ObservationController {
    /// Observes a string key path of `object` (`"address.city"`), as
    /// ``ObservedPropertyListing/observe(keyPath:options:_:)`` does for a token: checked against the
    /// declared types before anything is observed, values as `Any` in a ``KeyedChange``.
    ///
    /// ```swift
    /// try observations.observe(person, keyPath: "address.city") { view, person, change in
    ///     view.cityLabel = change.newValue as? String
    /// }
    /// ```
    ///
    /// One observation per (object, string): observing the same string again replaces it. A string
    /// and a typed key path naming the same property are two observations.
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

    /// Observes a string key path of `object`, calling a method of the observer (KVOController's
    /// target-action with a key path string).
    ///
    /// ```swift
    /// try observations.observe(person, keyPath: "address.city", action: ProfileView.cityDidChange)
    /// ```
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

    /// Ends the observation of the string key path `keyPath` on `object`, if there is one: the
    /// string as it was observed (`"address.city"`), which is not the same observation as the typed
    /// `\.address?.city`.
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
