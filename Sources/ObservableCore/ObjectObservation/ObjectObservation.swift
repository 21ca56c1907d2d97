/// An observation of every `@Observed` property of one object: one entry in each property's list,
/// which owns it; the observation holds its entries until it ends.
final class ObjectObservation: AnyObservation, @unchecked Sendable {
    private let options: ObservationOptions
    private let handler: (AnyObject, PropertyChange) -> Void
    private let onObservedDeallocated: DeallocationHook?
    /// The object's type, for descriptions.
    private let objectType: AnyClass
    /// Where the object is in an observed graph, which its changes carry; `nil` outside one.
    let location: ChangeLocation?
    /// Guards `entries`; its sections call no user code.
    private let lock = ShortLock()
    /// The entries, until the observation ends. Guarded by `lock`, so Swift's run-time exclusivity
    /// checks are off.
    @exclusivity(unchecked) private var entries: [PropertyEntry] = []

    /// Whether the lists' sets are counted in their thread's `SetExtent` (an undo history's groups).
    private let watchesSetExtent: Bool

    init(
        of object: AnyObject, options: ObservationOptions, origin: ObservationOrigin, watchesSetExtent: Bool = false,
        location: ChangeLocation? = nil, onObservedDeallocated: DeallocationHook?,
        handler: @escaping (AnyObject, PropertyChange) -> Void
    ) {
        self.location = location
        self.watchesSetExtent = watchesSetExtent
        self.options = options
        self.handler = handler
        self.onObservedDeallocated = onObservedDeallocated
        self.objectType = type(of: object)
        super.init()
        self.origin = origin
    }

    /// Registers an entry in each property's list; an object with none, or being deallocated, ends the
    /// observation at once (`warnsWhenEmpty`: with a debug warning).
    func register(_ object: AnyObject, warnsWhenEmpty: Bool = true) {
        let properties = ObjectProperties.of(object)
        guard !properties.isEmpty else {
            if warnsWhenEmpty {
                Diagnostics.warnNoObservedProperties(type(of: object))
            } else if ListedProperties.of(type(of: object)) == nil {
                Diagnostics.warnNotListed(type(of: object))
            }
            _ = claimEnd()
            return
        }
        let made = properties.map { PropertyEntry(observation: self, property: $0, options: options) }
        lock.withLock { entries = made }
        for entry in made where !entry.register(in: object, watchingSetExtent: watchesSetExtent) {
            end()
            return
        }
        // Cancelled meanwhile (a graph's node may leave as it joins): the entries go.
        if !isActive { for entry in made { entry.unregister() } }
    }

    /// Hands a change of `property` of `object` to the handler.
    @inline(__always)
    func deliver(
        _ object: AnyObject, _ property: Unmanaged<ObjectProperty>, _ old: BorrowedValue, _ new: BorrowedValue?,
        _ mutation: CollectionMutation?
    ) {
        guard isActive else { return }
        property._withUnsafeGuaranteedRef { property in
            // A value of 8 bytes set (the common case): its bytes written straight into the change.
            if let new, mutation == nil, let wordType = property.reader.wordType {
                handler(
                    object,
                    PropertyChange(
                        options: options, property: Unmanaged.passUnretained(property),
                        old: KeyedValue(wordType, bytes: (KeyedValueReader.word(old), 0)),
                        new: KeyedValue(wordType, bytes: (KeyedValueReader.word(new), 0)), isPrior: false,
                        mutation: nil))
                return
            }
            deliverKept(object, property, old, new, mutation)
        }
    }

    /// `deliver` in a graph: with where the change happened and, below the root, its object. The
    /// root's change of 8 bytes is made apart, so that the compiler sees it holds nothing to release.
    func deliverInGraph(
        _ object: AnyObject, _ property: Unmanaged<ObjectProperty>, _ old: BorrowedValue, _ new: BorrowedValue?,
        _ mutation: CollectionMutation?
    ) {
        guard isActive, let location else { return }
        property._withUnsafeGuaranteedRef { property in
            if let new, mutation == nil, let wordType = property.reader.wordType {
                let old = KeyedValue(wordType, bytes: (KeyedValueReader.word(old), 0))
                let new = KeyedValue(wordType, bytes: (KeyedValueReader.word(new), 0))
                let property = Unmanaged.passUnretained(property)
                if location.isRoot {
                    handler(
                        object,
                        PropertyChange(
                            options: options, property: property, old: old, new: new, isPrior: false, mutation: nil,
                            location: location))
                } else {
                    handler(
                        object,
                        PropertyChange(
                            options: options, property: property, old: old, new: new, isPrior: false, mutation: nil,
                            location: location, changedObject: object))
                }
                return
            }
            deliverKept(object, property, old, new, mutation)
        }
    }

    /// The object a change at `location` carries: none outside a graph, nor for the root's own
    /// properties, which a change names through its location (see `ChangeLocation`).
    @inline(__always)
    private static func changedObject(_ object: AnyObject, at location: ChangeLocation?) -> AnyObject? {
        guard let location, !location.isRoot else { return nil }
        return object
    }

    /// `deliver` for `.distinct`: the comparison, then the change if sent.
    func deliverIfSent(
        _ object: AnyObject, _ property: Unmanaged<ObjectProperty>, _ old: BorrowedValue, _ new: BorrowedValue?,
        _ mutation: CollectionMutation?
    ) {
        let reader = property._withUnsafeGuaranteedRef { $0.reader }
        guard options.sends(isPrior: new == nil, old: reader.kept(old).any, new: new.flatMap { reader.kept($0).any })
        else { return }
        deliver(object, property, old, new, mutation)
    }

    /// `deliver` for any other value, or a notification before the store, or a collection's mutation;
    /// in a graph, located as `deliverInGraph` locates it.
    @inline(never)
    private func deliverKept(
        _ object: AnyObject, _ property: ObjectProperty, _ old: BorrowedValue, _ new: BorrowedValue?,
        _ mutation: CollectionMutation?
    ) {
        let reader = property.reader
        handler(
            object,
            PropertyChange(
                options: options, property: Unmanaged.passUnretained(property), old: reader.kept(old),
                new: new.map { reader.kept($0) } ?? .none, isPrior: new == nil, mutation: mutation,
                location: location, changedObject: Self.changedObject(object, at: location)))
    }

    /// The object was deallocated (one of its lists ended: the others end with it).
    func objectEnded() {
        if end() { onObservedDeallocated?() }
    }

    override func didCancel() {
        for entry in takeEntries() { entry.unregister() }
    }

    /// Ends the observation once; `true` for the call that ended it. The entries are let go after
    /// it has ended (see `AnyObservation` for why that order matters).
    @discardableResult
    private func end() -> Bool {
        guard claimEnd() else { return false }
        for entry in takeEntries() { entry.unregister() }
        return true
    }

    private func takeEntries() -> [PropertyEntry] {
        lock.withLock {
            var taken: [PropertyEntry] = []
            swap(&taken, &entries)
            return taken
        }
    }

    override func summary() -> ObservationSummary? {
        ObservationSummary(
            keyPath: \PropertyChange.self, options: options, origin: origin, isPath: false, root: nil,
            isWholeObject: true)
    }
}

/// One property's entry of a whole-object observation, handing its changes on. Assumes its property
/// is immortal (held unmanaged) and `list`, retained by hand, is released only in `deinit`. Proved
/// by `PropertyObservationTests` under ASan and TSan.
final class PropertyEntry: ListEntry, @unchecked Sendable {
    let observation: ObjectObservation
    /// Immortal (see `ObjectProperty`).
    let property: Unmanaged<ObjectProperty>
    // Written once by `register`, before anything can `unregister`; retained by hand.
    @exclusivity(unchecked) private var list: Unmanaged<ObserverList>?

    init(observation: ObjectObservation, property: ObjectProperty, options: ObservationOptions) {
        self.observation = observation
        self.property = Unmanaged.passUnretained(property)
        // Closures, not the static methods themselves, which would be called through a thunk; with
        // `.distinct`, its own, so that no other observation pays for the comparison.
        if options.skipsEqualValues {
            super.init(options: options) { entry, object, old, new, mutation, _ in
                let entry = unsafeDowncast(entry, to: PropertyEntry.self)
                entry.observation.deliverIfSent(object, entry.property, old, new, mutation)
            }
        } else if observation.location != nil {
            super.init(options: options) { entry, object, old, new, mutation, _ in
                let entry = unsafeDowncast(entry, to: PropertyEntry.self)
                entry.observation.deliverInGraph(object, entry.property, old, new, mutation)
            }
        } else {
            super.init(options: options) { entry, object, old, new, mutation, _ in
                let entry = unsafeDowncast(entry, to: PropertyEntry.self)
                entry.observation.deliver(object, entry.property, old, new, mutation)
            }
        }
    }

    deinit {
        list?.release()
    }

    /// Adds the entry to the list of the property's slot; `false` if the object is being deallocated.
    func register(in object: AnyObject, watchingSetExtent: Bool) -> Bool {
        let (offset, awaitsKey) = property._withUnsafeGuaranteedRef { ($0.slotOffset, $0.key == nil) }
        list = Registration.add(
            self, atSlot: offset, of: object, awaitingKey: awaitsKey, watchesSetExtent: watchingSetExtent)
        return list != nil
    }

    /// Takes the entry out of its list, if it is still there.
    func unregister() {
        list?._withUnsafeGuaranteedRef { $0.remove(self) }
    }

    override func learn(_ key: ObservedPropertyKey) {
        property._withUnsafeGuaranteedRef { $0.learn(key) }
    }

    override func listEnded() {
        observation.objectEnded()
    }

    override func summary() -> ObservationSummary? {
        observation.summary()
    }
}
