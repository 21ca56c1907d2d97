/// Several key paths of one object with one handler or one action, as KVOController's
/// `observe:keyPaths:`: each key path is one observation, as if observed alone.
extension ObservationController {
    /// Observes several key paths of `object` with one handler; `change.keyPath` says which changed.
    /// Each is an observation of its own; an empty list observes nothing (debug builds say so).
    public func observe<Object: KeyValueObservable>(
        _ object: Object,
        keyPaths: [PartialKeyPath<Object>],
        options: ObservationOptions = [.old, .new],
        _ handler: @escaping (Observer, Object, ObservedChange<Any>) -> Void
    ) {
        if keyPaths.isEmpty { Diagnostics.warnNoKeyPaths(Object.self) }
        for keyPath in keyPaths {
            // Every PartialKeyPath<Object> is dynamically a KeyPath<Object, Value> for some Value, and
            // Object is KeyValueObservable, so the conditional conformance below always applies.
            guard let typed = keyPath as? any ErasedObservableKeyPath else { continue }
            typed.observe(object, in: self, options: options) { observer, object, change in
                handler(observer, unsafeDowncast(object, to: Object.self), change)
            }
        }
    }

    /// Observes several key paths of `object`, calling one method of the observer.
    public func observe<Object: KeyValueObservable>(
        _ object: Object,
        keyPaths: [PartialKeyPath<Object>],
        options: ObservationOptions = [.old, .new],
        action: @escaping (Observer) -> (Object, ObservedChange<Any>) -> Void
    ) {
        observe(object, keyPaths: keyPaths, options: options) { observer, object, change in
            action(observer)(object, change)
        }
    }
}

/// Opens a `PartialKeyPath` to its `KeyPath<Root, Value>` so a list of heterogeneous key paths can
/// be observed with typed values.
protocol ErasedObservableKeyPath {
    func observe<Observer: AnyObject>(
        _ object: AnyObject,
        in controller: ObservationController<Observer>,
        options: ObservationOptions,
        _ handler: @escaping (Observer, AnyObject, ObservedChange<Any>) -> Void
    )
}

extension KeyPath: ErasedObservableKeyPath where Root: KeyValueObservable {
    func observe<Observer: AnyObject>(
        _ object: AnyObject,
        in controller: ObservationController<Observer>,
        options: ObservationOptions,
        _ handler: @escaping (Observer, AnyObject, ObservedChange<Any>) -> Void
    ) {
        // The key path came from a [PartialKeyPath<Object>] and `object` is that Object.
        controller.observe(unsafeDowncast(object, to: Root.self), self, options: options) { observer, root, change in
            handler(
                observer, root,
                ObservedChange<Any>(
                    kind: change.kind,
                    oldValue: change.oldValue.map { $0 as Any },
                    newValue: change.newValue.map { $0 as Any },
                    isPrior: change.isPrior,
                    keyPath: change._keyPath,
                    mutation: change.mutation))
        }
    }
}
