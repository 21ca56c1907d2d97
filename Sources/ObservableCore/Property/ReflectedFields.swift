@_spi(Reflection) import Swift

/// The stored fields of a class and its superclasses, by name, each class's apart, from the runtime's
/// reflection metadata (computed once per class).
///
/// Assumes what `_forEachField` (the standard library's reflection SPI) reports of a class: every
/// stored field with its byte offset in an instance, superclasses' first, and a noncopyable field's
/// type as `()`; and that the runtime's `swift_reflectionMirror_recursiveChildMetadata`, which
/// `_forEachField` calls for each index in that order, says whether a field holds a strong
/// reference (`false` for `weak` and `unowned` storage), in the layout of the standard library's
/// `_FieldReflectionMetadata`. Proved by `StringKeyPathTests` (values read and set through the
/// offsets found), `KeyPathInterningTests` (a slot found on a subclass that overrides the property)
/// and `GraphObservationTests` (weak and unowned references not followed, strong ones followed).
struct ReflectedFields: Sendable {
    struct Field: Sendable {
        let offset: Int
        /// The field's position among its class's own fields, as its `Mirror` lists them.
        let index: Int
        let type: Any.Type
        /// Whether the field holds what it stores strongly: not `weak`, not `unowned`.
        let isStrong: Bool
        /// Whether the field's type is an existential (`Any`, `any P`, `AnyObject`): its values may be
        /// of any type.
        let isExistential: Bool
    }

    /// An `@Observed` property: its slot (`_$name`) and its storage (`_name` of the class declaring
    /// the slot, or the superclass's own `name` for an `@Observed override`).
    struct ObservedProperty {
        let slotOffset: Int
        let storageName: String
        let storageType: Any.Type
        let storageOffset: Int
        /// The storage's position among `storageClass`'s own fields (`Mirror`'s children).
        let storageIndex: Int
        /// Whether the storage holds its value strongly (not `weak`, not `unowned`).
        let storageIsStrong: Bool
        /// Whether the storage's type is an existential.
        let storageIsExistential: Bool
        /// The class whose field `storageName` is: a subclass may declare a field of the same name.
        let storageClass: AnyClass
        /// Whether a string key reaches the property (its slot is `_$name`, not `_$$name`).
        let hasStringKey: Bool
    }

    /// One class's own fields.
    private struct Level: @unchecked Sendable {  // immutable; a class object is immortal
        let type: AnyClass
        let fields: [String: Field]
    }

    /// The class's own fields first, then each superclass's.
    private let levels: [Level]

    /// Offsets of the class's `@Observed` slots (`_$name` fields), superclasses' included.
    let slotOffsets: [Int]

    /// The `@Observed` property `key` as the class's accessors see it: the slot of the most derived
    /// class that declares one, paired with that class's own storage (or, for an `@Observed
    /// override`, the nearest superclass's property of that name). A field that merely has the
    /// storage's name in another class is never taken for it.
    ///
    /// A string key (`keyed`) finds only a property that a string key reaches; the runtime's own
    /// lookups (`keyed: false`) find every one.
    func observedProperty(_ key: String, keyed: Bool = false) -> ObservedProperty? {
        let storageName = ObservedNames.storage(of: key)
        let keyedSlot = ObservedNames.slot(of: key)
        let hiddenSlot = keyed ? nil : ObservedNames.hiddenSlot(of: key)
        func slot(in level: Level) -> (Field, hasStringKey: Bool)? {
            if let field = level.fields[keyedSlot] { return (field, true) }
            if let hiddenSlot, let field = level.fields[hiddenSlot] { return (field, false) }
            return nil
        }
        guard !keyed || ObservedNames.isPropertyName(key),
            let index = levels.firstIndex(where: { slot(in: $0) != nil })
        else { return nil }
        let (slotField, hasStringKey) = slot(in: levels[index])!
        func property(_ level: Level, _ name: String) -> ObservedProperty? {
            level.fields[name].map {
                ObservedProperty(
                    slotOffset: slotField.offset, storageName: name, storageType: $0.type, storageOffset: $0.offset,
                    storageIndex: $0.index, storageIsStrong: $0.isStrong, storageIsExistential: $0.isExistential,
                    storageClass: level.type,
                    hasStringKey: hasStringKey)
            }
        }
        if let own = property(levels[index], storageName) { return own }
        for level in levels[(index + 1)...] {
            if slot(in: level) != nil, let observed = property(level, storageName) { return observed }
            if let plain = property(level, key) { return plain }
        }
        return nil
    }

    /// The name of the `@Observed` property whose slot is at `offset` (its field `_$name`).
    func slotName(atOffset offset: Int) -> String? {
        for level in levels {
            for (name, field) in level.fields where field.offset == offset {
                if let property = ObservedNames.property(ofSlot: name) { return property }
            }
        }
        return nil
    }

    private static let lock = Lock()
    nonisolated(unsafe) private static var cache: [ObjectIdentifier: ReflectedFields] = [:]  // guarded by `lock`

    static func of(_ type: AnyClass) -> ReflectedFields {
        if let cached = lock.withLock({ cache[ObjectIdentifier(type)] }) { return cached }
        // The runtime lists a class's fields after its superclasses' (and `_forEachField` lists them
        // all): this class's own are those past its superclass's count.
        let superclass = _getSuperclass(type).map(Self.of)
        let inherited = superclass?.fieldCount ?? 0
        var all: [(String, Field)] = []
        let classType = _EachFieldOptions(rawValue: 1 << 0)  // `.classType`: `type` is a class
        _forEachField(of: type, options: classType) {
            name, offset, fieldType, kind in
            let field = Field(
                offset: offset, index: all.count - inherited, type: fieldType,
                isStrong: FieldOwnership.isStrong(type, index: all.count), isExistential: kind == .existential)
            all.append((String(cString: name), field))
            return true
        }
        let own = all.dropFirst(inherited)
        let level = Level(type: type, fields: Dictionary(own.map { $0 }, uniquingKeysWith: { first, _ in first }))
        // The runtime reports a noncopyable field's type as `()`.
        let slotOffsets = own.filter { name, field in
            ObservedNames.property(ofSlot: name) != nil && field.type == Void.self
        }.map(\.1.offset)
        let reflected = ReflectedFields(
            levels: [level] + (superclass?.levels ?? []), slotOffsets: slotOffsets + (superclass?.slotOffsets ?? []))
        lock.withLock { cache[ObjectIdentifier(type)] = reflected }
        return reflected
    }

    private var fieldCount: Int { levels.reduce(0) { $0 + $1.fields.count } }
}

/// The names `@Observed` gives the members it generates for a property `name`: its storage `_name`
/// and its slot, `_$name` when a string key reaches the property and `_$$name` when none does. The
/// macro spells them in `ObservedMacro.Names`; `NamingContractTests`, in each test target, checks
/// its side (Design.md, "The macro and the runtime agree on names").
enum ObservedNames {
    static func storage(of property: String) -> String { "_" + property }
    static func slot(of property: String) -> String { slotPrefix + property }
    static func hiddenSlot(of property: String) -> String { slotPrefix + "$" + property }

    /// The property whose slot `field` is, or `nil` when it is not named as a slot.
    static func property(ofSlot field: String) -> String? {
        guard field.hasPrefix(slotPrefix) else { return nil }
        let rest = field.dropFirst(slotPrefix.count)
        return String(rest.first == "$" ? rest.dropFirst() : rest)
    }

    /// Whether `key` can name a property: a key beginning with `$` would name a hidden slot.
    static func isPropertyName(_ key: String) -> Bool { !key.isEmpty && !key.hasPrefix("$") }

    private static let slotPrefix = "_$"
}

/// Whether a stored field of a class holds its value strongly: what the runtime's reflection knows
/// and `_forEachField` does not pass on. See `ReflectedFields` for what this assumes.
private enum FieldOwnership {
    /// The field `index` of `type`, superclasses' fields first, as `_forEachField` counts them.
    static func isStrong(_ type: AnyClass, index: Int) -> Bool {
        var field = FieldReflectionMetadata()
        _ = childMetadata(type, index: index, fieldMetadata: &field)
        field.freeName?(field.name)
        return field.isStrong
    }

    /// The standard library's `_FieldReflectionMetadata`, which the runtime fills.
    private struct FieldReflectionMetadata {
        let name: UnsafePointer<CChar>? = nil
        let freeName: (@convention(c) (UnsafePointer<CChar>?) -> Void)? = nil
        let isStrong: Bool = false
        let isVar: Bool = false
    }

    @_silgen_name("swift_reflectionMirror_recursiveChildMetadata")
    private static func childMetadata(
        _ type: Any.Type, index: Int, fieldMetadata: UnsafeMutablePointer<FieldReflectionMetadata>
    ) -> Any.Type
}
