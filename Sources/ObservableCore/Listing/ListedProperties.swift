/// A class's `@Observed` properties as its lists describe them, with each slot's offset: what the
/// by-name features find a property by. Made once per class.
final class ListedProperties: @unchecked Sendable {  // immutable but for `learnt`, set once under `lock`
    /// One property: its most derived entry, its slot's index in `offsets`, and the storage it reads.
    struct Property: Sendable {
        let name: String
        let slotIndex: Int
        let flags: ObservedPropertyList.Flags
        let storage: ObservedPropertyList.Storage

        /// Whether a string key reaches the property.
        var hasStringKey: Bool { !flags.contains(.hidden) }
        /// Whether the storage holds its value strongly (not `weak`, not `unowned`).
        var isStrong: Bool { flags.isDisjoint(with: [.weak, .unowned]) }
    }

    private let lists: [ObservedPropertyList]
    /// What `property(_:keyed:)` finds, by name: for the runtime's own lookups, and for string keys.
    private let found: [String: Property]
    private let foundByStringKey: [String: Property]
    /// The slot offsets of `lists`' entries, learnt from the first instance asked about. Guarded by
    /// `lock`: a pthread mutex, which ThreadSanitizer sees (it does not see `Mutex`'s futex hand-off).
    @exclusivity(unchecked) private var learnt: [Int]?
    private let lock = Lock()

    private init(_ list: ObservedPropertyList) {
        var lists = [list]
        while let inherited = lists.last?.inherited { lists.append(inherited) }
        self.lists = lists
        var found: [String: Property] = [:]
        var foundByStringKey: [String: Property] = [:]
        for name in Set(lists.flatMap { $0.entries.map(\.name) }) {
            found[name] = Self.find(name, keyed: false, in: lists)
            foundByStringKey[name] = Self.find(name, keyed: true, in: lists)
        }
        self.found = found
        self.foundByStringKey = foundByStringKey
    }

    /// Whether `type` lists its own properties rather than inheriting its superclass's list.
    func areOwn(of type: AnyClass) -> Bool {
        ObjectIdentifier(lists[0].type) == ObjectIdentifier(type)
    }

    /// Learns where the slots of `object`'s class are, for `name(ofSlotAt:)`.
    static func learnSlots(of object: AnyObject) {
        _ = of(type(of: object))?.offsets(in: object)
    }

    /// The properties of `type`, or `nil` when no `@KeyValueObservable` lists them.
    static func of(_ type: AnyClass) -> ListedProperties? {
        made.value(for: ObjectIdentifier(type)) { ObservedPropertyList.of(type).map(ListedProperties.init) }
    }

    /// The classes' listings.
    private static let made = LearntTable<ObjectIdentifier, ListedProperties?>()

    /// The property `key` as the class's accessors see it; `keyed`: only one a string key reaches. An
    /// override reads the nearest superclass's storage.
    func property(_ key: String, keyed: Bool = false) -> Property? {
        keyed ? foundByStringKey[key] : found[key]
    }

    private static func find(_ key: String, keyed: Bool, in lists: [ObservedPropertyList]) -> Property? {
        var index = 0
        for (level, list) in lists.enumerated() {
            for entry in list.entries {
                defer { index += 1 }
                guard entry.name == key, !keyed || !entry.flags.contains(.hidden) else { continue }
                let storage =
                    entry.storage ?? inheritedStorage(of: key, in: lists.dropFirst(level + 1))
                    ?? ObservedPropertyList.Storage(mirroring: key, above: list.type, valueType: entry.valueType)
                return Property(name: key, slotIndex: index, flags: entry.flags, storage: storage)
            }
        }
        return nil
    }

    /// The storage of the property `key` in the nearest of `lists` listing it with its storage.
    private static func inheritedStorage(
        of key: String, in lists: ArraySlice<ObservedPropertyList>
    ) -> ObservedPropertyList.Storage? {
        for list in lists {
            if let entry = list.entries.first(where: { $0.name == key }), let storage = entry.storage { return storage }
        }
        return nil
    }

    /// Every property once, as its most derived entry declares it, without an instance's offsets.
    var declared: [Property] {
        var seen: Set<String> = []
        return lists.flatMap(\.entries).compactMap { seen.insert($0.name).inserted ? found[$0.name] : nil }
    }

    /// Every property once, in slot order: a superclass's first.
    func all(in object: AnyObject) -> [(property: Property, slotOffset: Int)] {
        let offsets = self.offsets(in: object)
        var found: [(property: Property, slotOffset: Int)] = []
        var seen: Set<String> = []
        for list in lists {
            for entry in list.entries where seen.insert(entry.name).inserted {
                guard let property = property(entry.name) else { continue }
                found.append((property, offsets[property.slotIndex]))
            }
        }
        return found.sorted { $0.slotOffset < $1.slotOffset }
    }

    /// Every listed slot of `object` by offset, with its property's name.
    func slots(in object: AnyObject) -> [(name: String, offset: Int)] {
        zip(lists.flatMap(\.entries).map(\.name), offsets(in: object)).map { ($0, $1) }.sorted { $0.offset < $1.offset }
    }

    /// The slot offset of `property` in `object`, an instance of the class.
    func slotOffset(of property: Property, in object: AnyObject) -> Int {
        offsets(in: object)[property.slotIndex]
    }

    /// The name of the property whose slot is at `offset`, once an instance was asked about.
    func name(ofSlotAt offset: Int) -> String? {
        guard let offsets = lock.withLock({ learnt }), let index = offsets.firstIndex(of: offset) else { return nil }
        return lists.lazy.flatMap(\.entries).dropFirst(index).first?.name
    }

    func offsets(in object: AnyObject) -> [Int] {
        if let known = lock.withLock({ learnt }) { return known }
        let offsets = lists.flatMap { $0.slotOffsets(in: object) }
        return lock.withLock {
            if let known = learnt { return known }
            learnt = offsets
            return offsets
        }
    }
}

extension ObservedPropertyList {
    /// The list of `type`, own or inherited; `nil` for a class no `@KeyValueObservable` lists.
    static func of(_ type: AnyClass) -> ObservedPropertyList? {
        (type as? any ObservedPropertyListing.Type)?._$observedProperties
    }
}
