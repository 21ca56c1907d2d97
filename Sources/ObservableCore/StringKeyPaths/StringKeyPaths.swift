import Synchronization

extension ObservedPropertyListing {
    /// Observes a key path given as a string of property names, as Cocoa and EasyKVO do:
    /// `try person.observe(keyPath: "address.city") { person, change in … }`.
    ///
    /// Each component names an `@Observed` stored property (including one declared in a superclass),
    /// found in the list `@KeyValueObservable` writes of the class's properties; a class met along the
    /// path without a list of its own throws `.notListed`. A key reaches only what code outside
    /// the type could read: a property declared `internal` or wider, or one opted in with
    /// `@Observed(stringKey: true)`; any other name throws as a missing one does. The semantics are those of the typed
    /// ``KeyValueObservable/observe(_:options:_:)`` with the same path: every component is a trigger, replacing an
    /// intermediate object re-wires the observation, a `nil` intermediate gives a `nil` value. The
    /// values arrive as `Any` (``KeyedChange``).
    ///
    /// The whole path is checked against the declared property types before anything is observed,
    /// so a typo fails here and not silently later:
    ///
    /// ```swift
    /// do {
    ///     let token = try person.observe(keyPath: "adress.city") { _, change in print(change) }
    /// } catch {
    ///     print(error)   // "adress.city": Person has no property 'adress' that a string key reaches
    /// }
    /// ```
    ///
    /// A single property (`"name"`) is observed as its typed key path is, in the property's own
    /// list. A longer path is resolved by reading stored values through the list's readers when a
    /// property of the path changes, so it is slower than a typed key path. Computed properties have
    /// no string key.
    ///
    /// - Throws: ``StringKeyPathError`` naming the offending component and the type it was looked up in.
    public func observe(
        keyPath: String,
        options: ObservationOptions = [.old, .new],
        _ handler: @escaping (Self, KeyedChange) -> Void
    ) throws(StringKeyPathError) -> ObservationToken {
        let path = try StringKeyPath(keyPath, rootType: type(of: self))
        return ObservationToken(
            path.observe(
                self, standIn: path.standIn(for: Self.self), options: options, origin: .token,
                onObservedDeallocated: nil, handler))
    }
}

/// A validated string key path: its components, and how to read the value through them while
/// reporting each `@Observed` property read to the tracking frame, as a generated getter does. Each
/// component is found in the list `@KeyValueObservable` writes of its class (`ListedProperties`).
struct StringKeyPath: Sendable {
    /// The path as written, which each change names.
    let text: String
    let components: [String]
    /// The property, when the path is one property of the root: observed directly, in its list.
    private let property: (listed: ListedProperties, property: ListedProperties.Property)?

    init(_ path: String, rootType: AnyClass) throws(StringKeyPathError) {
        text = path
        components = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var type: Any.Type = rootType
        var last: (listed: ListedProperties, property: ListedProperties.Property)?
        for (position, key) in components.enumerated() {
            let typeName = String(describing: type)
            func fail(_ reason: StringKeyPathError.Reason) -> StringKeyPathError {
                StringKeyPathError(reason: reason, key: key, typeName: typeName, path: path)
            }
            if key.isEmpty { throw fail(.emptyComponent) }
            guard let objectType = type as? AnyClass else { throw fail(.notAnObject) }
            guard let listed = ListedProperties.of(objectType) else { throw fail(.notListed) }
            // A property no string key reaches, a stored property that is not `@Observed`, and a
            // name the type does not have are one error: a client cannot probe for hidden names.
            guard let property = listed.property(key, keyed: true) else {
                throw fail(listed.areOwn(of: objectType) ? .unknownKey : .notListed)
            }
            if position < components.count - 1 { type = unwrappedOptionalType(property.storage.valueType) }
            last = (listed, property)
        }
        self.property = components.count == 1 ? last : nil
    }

    /// A stand-in for the typed key path an observation carries, one per root type and string,
    /// and the string's name: changes are handed on as `KeyedChange`s, which carry the name, and
    /// the descriptions find the string by the stand-in.
    struct StandIn {
        let keyPath: InternedKeyPath
        let name: StringKeyPathName
    }

    /// The stand-in for observations of this path from a `Root`, its name recorded.
    func standIn<Root: AnyObject>(for _: Root.Type) -> StandIn {
        let text = self.text
        let keyPath = InternedKeyPath(\StringKeyPathStandIn<Root>.[path: text])
        return StandIn(keyPath: keyPath, name: StringKeyPathNames.record(text, for: keyPath))
    }

    /// Observes the path from `root`, carrying `standIn` (`standIn(for:)`): one property of the root
    /// directly, in its list; a longer path as a path observation, every component a trigger.
    func observe<Root: AnyObject>(
        _ root: Root, standIn: StandIn, options: ObservationOptions, origin: ObservationOrigin,
        onObservedDeallocated: DeallocationHook?, _ handler: @escaping (Root, KeyedChange) -> Void
    ) -> AnyObservation {
        let name = standIn.name
        if let (listed, property) = property {
            let observation = KeyedDirectObservation(
                keyPath: standIn.keyPath, name: name, valueType: property.storage.valueType, options: options,
                onObservedDeallocated: onObservedDeallocated, handler: handler)
            observation.origin = origin
            Registration.register(observation, atSlot: listed.slotOffset(of: property, in: root), of: root)
            Registration.deliverInitial(to: observation, options: options) {
                observation.deliverInitial(root, Tracking.untracked { value(of: root) })
            }
            return observation
        }
        let (initial, accesses) = Tracking.evaluate { self.value(of: root) }
        let plan = KeyPathResolutions.shared.typedPlan(
            standIn.keyPath, rootType: type(of: root), evaluate: { (root: Root) in self.value(of: root) },
            leafDelivery: nil)
        return Registration.observePath(
            root, plan: plan, accesses: accesses, initialValue: { initial }, options: options, origin: origin,
            onObservedDeallocated: onObservedDeallocated,
            handler: { root, change in handler(root, KeyedChange(change, name: name)) })
    }

    /// The value at the path from `root`, `nil` when an intermediate or the value is `nil`.
    func value(of root: AnyObject) -> Any? {
        var object = root
        for (position, key) in components.enumerated() {
            guard let listed = ListedProperties.of(type(of: object)), let property = listed.property(key, keyed: true)
            else {
                return nil
            }
            if let frame = TrackingFrame.current {
                let slot = ListSlot.at(listed.slotOffset(of: property, in: object), in: object)
                frame.record(object, slot.pointee.observers(), nil)
            }
            guard let stored = property.storage.read(object), let value = unwrappedOptional(stored) else {
                return nil
            }
            if position == components.count - 1 { return value }
            guard type(of: value) is AnyClass else { return nil }
            object = value as AnyObject
        }
        return nil
    }
}

/// What a string key path observation carries as its key path.
private struct StringKeyPathStandIn<Root> {
    subscript(path path: String) -> Void { () }
}

/// `T` for `T?`, `T??`, …; other types unchanged.
private func unwrappedOptionalType(_ type: Any.Type) -> Any.Type {
    var type = type
    while let optional = type as? OptionalProtocol.Type { type = optional.wrappedType }
    return type
}

extension KeyValueObservable {
    /// Unavailable for a class that `@KeyValueObservable` does not list: string keys find properties
    /// in its list.
    @available(
        *, unavailable,
        message:
            "a string key path finds properties in the list @KeyValueObservable writes: mark the class @KeyValueObservable"
    )
    public func observe(
        keyPath: String, options: ObservationOptions = [.old, .new], _ handler: @escaping (Self, KeyedChange) -> Void
    ) throws(StringKeyPathError) -> ObservationToken {
        fatalError("unavailable")
    }
}
