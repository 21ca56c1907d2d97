/// One `@Observed` property of a class as whole-object observations see it: name, slot, how values
/// are kept, its key once learnt. Made once per class and property, never freed.
@usableFromInline
final class ObjectProperty: @unchecked Sendable {
    /// The property's name, as declared.
    let name: String
    /// Where the property's slot is in an instance.
    let slotOffset: Int
    /// Keeps the property's values as a change carries them.
    let reader: KeyedValueReader
    /// How the property is declared (`weak`, reached by string key, …).
    let flags: ObservedPropertyList.Flags
    /// The type of the property's storage.
    let valueType: Any.Type
    /// Reads the stored value of an instance; `nil` unless the property holds objects that an
    /// observation of a graph follows (strongly: a `weak` or `unowned` reference is not followed).
    private let storedValue: ((AnyObject) -> Any?)?
    private let learnt = OnceReference<ObservedPropertyKey>()

    init(_ property: ListedProperties.Property, slotOffset: Int) {
        name = property.name
        self.slotOffset = slotOffset
        reader = KeyedValueReader(for: property.storage.valueType)
        flags = property.flags
        valueType = property.storage.valueType
        let mayHoldObjects = ObjectContents.mayHoldObjects(
            property.storage.valueType, isExistential: property.flags.contains(.existential))
        storedValue = property.isStrong && mayHoldObjects ? property.storage.read : nil
    }

    /// Whether an observation of a graph follows the objects this property holds.
    var followsObjects: Bool { storedValue != nil }

    /// The property's stored value in `object` (an instance of the class, kept alive by the
    /// caller), for a property that `followsObjects`; `nil` otherwise.
    func currentValue(in object: AnyObject) -> Any? {
        storedValue?(object) ?? nil
    }

    /// The property's key, once one of its notifications on any instance of the class taught it.
    var key: ObservedPropertyKey? { learnt.load() }

    /// Keeps `key`, unless a key was learnt already (every one names the same property).
    func learn(_ key: ObservedPropertyKey) {
        learnt.storeIfNil(key)
    }
}

/// The `@Observed` properties of each class, its superclasses' included, as its list says
/// (`ListedProperties`), made once per class.
enum ObjectProperties {
    /// By class; of two threads making them at once, the first made are kept, and learn keys.
    private static let made = LearntTable<ObjectIdentifier, [ObjectProperty]>()

    /// The listed properties of `object`'s class in slot order, superclasses first.
    static func of(_ object: AnyObject) -> [ObjectProperty] {
        let type: AnyClass = type(of: object)
        return made.value(for: ObjectIdentifier(type)) {
            ListedProperties.of(type)?.all(in: object).map { ObjectProperty($0, slotOffset: $1) } ?? []
        }
    }
}
