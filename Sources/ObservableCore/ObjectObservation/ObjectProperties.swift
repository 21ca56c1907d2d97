/// One `@Observed` property of a class as the observations of whole objects of that class see it:
/// its name, its slot, how a change keeps its values, and its key once a notification taught it
/// (see `ObservedPropertyKey`). One per class and property, made once and never freed, so that a
/// change refers to it without counting references.
@usableFromInline
final class ObjectProperty: @unchecked Sendable {
    /// The property's name, as declared.
    let name: String
    /// Where the property's slot is in an instance.
    let slotOffset: Int
    /// Keeps the property's values as a change carries them.
    let reader: KeyedValueReader
    private let learnt = OnceReference<ObservedPropertyKey>()

    init(name: String, slotOffset: Int, reader: KeyedValueReader) {
        self.name = name
        self.slotOffset = slotOffset
        self.reader = reader
    }

    /// The property's key, once one of its notifications on any instance of the class taught it.
    var key: ObservedPropertyKey? { learnt.load() }

    /// Keeps `key`, unless a key was learnt already (every one names the same property).
    func learn(_ key: ObservedPropertyKey) {
        learnt.storeIfNil(key)
    }
}

/// The `@Observed` properties of each class, its superclasses' included, found by reflection
/// (`ReflectedFields`) once per class.
enum ObjectProperties {
    private static let lock = Lock()
    nonisolated(unsafe) private static var cache: [ObjectIdentifier: [ObjectProperty]] = [:]  // guarded by `lock`

    /// The `@Observed` properties of `type` in the order of their slots in an instance: a
    /// superclass's first, each class's in the order declared.
    static func of(_ type: AnyClass) -> [ObjectProperty] {
        if let cached = lock.withLock({ cache[ObjectIdentifier(type)] }) { return cached }
        let fields = ReflectedFields.of(type)
        let properties = fields.slotOffsets.sorted().compactMap { offset -> ObjectProperty? in
            guard let name = fields.slotName(atOffset: offset),
                let property = fields.observedProperty(name), property.slotOffset == offset
            else { return nil }
            return ObjectProperty(
                name: name, slotOffset: offset, reader: KeyedValueReader(for: property.storageType))
        }
        return lock.withLock {
            // Another thread may have made them meanwhile: the first made are kept, and learn keys.
            if let cached = cache[ObjectIdentifier(type)] { return cached }
            cache[ObjectIdentifier(type)] = properties
            return properties
        }
    }
}
