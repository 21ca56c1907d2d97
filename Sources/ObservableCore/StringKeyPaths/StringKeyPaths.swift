import Synchronization

extension ObservedPropertyListing {
    /// Observes a key path given as a string of property names, as Cocoa does
    /// (`try person.observe(keyPath: "address.city")`), with the semantics of the typed
    /// ``KeyValueObservable/observe(_:options:_:)``; values arrive as `Any` (``KeyedChange``).
    ///
    /// A key reaches a listed `@Observed` property declared `internal` or wider, or opted in with
    /// `@Observed(stringKey: true)`. The whole path is checked before anything is observed
    /// (<doc:StringKeyPaths>).
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

/// A validated string key path: its components, found in their classes' lists, and how to read
/// the value through them, reporting each read to the tracking frame as a getter does.
struct StringKeyPath: Sendable {
    /// The path as written, which each change names.
    let text: String
    let components: [String]
    /// The property, when the path is one property of the root: observed directly, in its list.
    private let property: (listed: ListedProperties, property: ListedProperties.Property)?

    init(_ path: String, rootType: AnyClass) throws(StringKeyPathError) {
        text = path
        // Split at each "." of its UTF-8, which no other character's bytes contain (a split of its
        // characters would find their boundaries one by one).
        components = path.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).map {
            String(Substring($0))
        }
        var type: Any.Type = rootType
        var last: (listed: ListedProperties, property: ListedProperties.Property)?
        for (position, key) in components.enumerated() {
            func fail(_ reason: StringKeyPathError.Reason) -> StringKeyPathError {
                StringKeyPathError(reason: reason, key: key, typeName: String(describing: type), path: path)
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

    /// A stand-in for a typed key path, one per root type and string, and the string's name.
    struct StandIn {
        let keyPath: InternedKeyPath
        let name: StringKeyPathName
    }

    /// The stand-in for observations of this path from a `Root`, its name recorded; made once per
    /// root type and string (a key path with an argument is instantiated, then interned, at each use).
    func standIn<Root: AnyObject>(for _: Root.Type) -> StandIn {
        let text = self.text
        return Self.standIn(text, from: Root.self) {
            let keyPath = InternedKeyPath(\StringKeyPathStandIn<Root>.[path: text])
            return StandIn(keyPath: keyPath, name: StringKeyPathNames.record(text, for: keyPath))
        }
    }

    /// The stand-in of `text` from `root`, made by `make` (outside the lock) the first time; kept for
    /// ever, as the interned key paths and their names are.
    static func standIn(_ text: String, from root: AnyClass, _ make: () -> StandIn) -> StandIn {
        standIns.value(for: StandInKey(root: ObjectIdentifier(root), text: text), learning: make)
    }

    private static let standIns = LearntTable<StandInKey, StandIn>()

    private struct StandInKey: Hashable {
        let root: ObjectIdentifier
        let text: String
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
        let plan = KeyPathResolutions.shared.typedPlan(standIn.keyPath, rootType: type(of: root)) {
            TypedPathPlan(
                keyPath: standIn.keyPath, evaluate: { (root: Root) in self.value(of: root) }, leafDelivery: nil)
        }
        return Registration.observePath(
            root, plan: plan, firstRead: .tracked(accesses), initialValue: { initial }, options: options,
            origin: origin,
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
