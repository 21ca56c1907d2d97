/// One `@Observed` property of a class as the observations of whole objects of that class see it:
/// its name, its slot, how a change keeps its values, its key once a notification taught it (see
/// `ObservedPropertyKey`), and for an observation of a graph whether it holds objects to follow and
/// its current value. One per class and property, made once and never freed, so that a change
/// refers to it without counting references.
///
/// Assumes, to read the current value, that `ReflectedFields` found the property's storage: a
/// strong stored field of exactly the storage type at that offset in every instance of the class,
/// which the caller keeps alive while it reads. Proved by `GraphObservationTests` (objects reached
/// through stored arrays, dictionaries and optionals) under AddressSanitizer in `.ci/run`.
@usableFromInline
final class ObjectProperty: @unchecked Sendable {
    /// The property's name, as declared.
    let name: String
    /// Where the property's slot is in an instance.
    let slotOffset: Int
    /// Keeps the property's values as a change carries them.
    let reader: KeyedValueReader
    /// Reads the stored value of an instance; `nil` unless the property holds objects that an
    /// observation of a graph follows (strongly: a `weak` or `unowned` reference is not followed).
    private let storedValue: ((AnyObject) -> Any)?
    private let learnt = OnceReference<ObservedPropertyKey>()

    init(name: String, slotOffset: Int, storage: ReflectedFields.ObservedProperty) {
        self.name = name
        self.slotOffset = slotOffset
        self.reader = KeyedValueReader(for: storage.storageType)
        guard storage.storageIsStrong,
            ObjectContents.mayHoldObjects(storage.storageType, isExistential: storage.storageIsExistential)
        else {
            storedValue = nil
            return
        }
        let offset = storage.storageOffset
        func reader<Value>(_: Value.Type) -> (AnyObject) -> Any {
            { object in
                UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()).advanced(by: offset)
                    .load(as: Value.self)
            }
        }
        storedValue = _openExistential(storage.storageType, do: reader)
    }

    /// Whether an observation of a graph follows the objects this property holds.
    var followsObjects: Bool { storedValue != nil }

    /// The property's stored value in `object` (an instance of the class, kept alive by the
    /// caller), for a property that `followsObjects`; `nil` otherwise.
    func currentValue(in object: AnyObject) -> Any? {
        storedValue.map { $0(object) }
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
            return ObjectProperty(name: name, slotOffset: offset, storage: property)
        }
        return lock.withLock {
            // Another thread may have made them meanwhile: the first made are kept, and learn keys.
            if let cached = cache[ObjectIdentifier(type)] { return cached }
            cache[ObjectIdentifier(type)] = properties
            return properties
        }
    }
}
