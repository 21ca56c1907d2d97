@_spi(Reflection) import Swift

/// The stored fields of a class and its superclasses, by name, each class's apart, from the runtime's
/// reflection metadata (computed once per class).
///
/// Assumes what `_forEachField` (the standard library's reflection SPI) reports of a class: every
/// stored field with its byte offset in an instance, superclasses' first, and a noncopyable field's
/// type as `()`. Proved by `StringKeyPathTests` (values read and set through the offsets found) and
/// `KeyPathInterningTests` (a slot found on a subclass that overrides the property).
struct ReflectedFields: Sendable {
    struct Field: Sendable {
        let offset: Int
        let type: Any.Type
    }

    /// An `@Observed` property: its slot (`_$name`) and its storage (`_name` of the class declaring
    /// the slot, or the superclass's own `name` for an `@Observed override`).
    struct ObservedProperty {
        let slotOffset: Int
        let storageName: String
        let storageType: Any.Type
        let storageOffset: Int
        /// The class whose field `storageName` is: a subclass may declare a field of the same name.
        let storageClass: AnyClass
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

    /// The field `name` of the class or of its nearest superclass that has one.
    func storedField(named name: String) -> Field? {
        levels.lazy.compactMap { $0.fields[name] }.first
    }

    /// The `@Observed` property `key` as the class's accessors see it: the slot of the most derived
    /// class that declares one, paired with that class's own storage (or, for an `@Observed
    /// override`, the nearest superclass's property of that name). A field that merely has the
    /// storage's name in another class is never taken for it.
    func observedProperty(_ key: String) -> ObservedProperty? {
        guard let index = levels.firstIndex(where: { $0.fields["_$" + key] != nil }) else { return nil }
        let slot = levels[index].fields["_$" + key]!
        func property(_ level: Level, _ name: String) -> ObservedProperty? {
            level.fields[name].map {
                ObservedProperty(
                    slotOffset: slot.offset, storageName: name, storageType: $0.type, storageOffset: $0.offset,
                    storageClass: level.type)
            }
        }
        if let own = property(levels[index], "_" + key) { return own }
        for level in levels[(index + 1)...] {
            if level.fields["_$" + key] != nil, let observed = property(level, "_" + key) { return observed }
            if let plain = property(level, key) { return plain }
        }
        return nil
    }

    /// The name of the `@Observed` property whose slot is at `offset` (its field `_$name`).
    func slotName(atOffset offset: Int) -> String? {
        for level in levels {
            for (name, field) in level.fields where field.offset == offset && name.hasPrefix("_$") {
                return String(name.dropFirst(2))
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
        var all: [(String, Field)] = []
        let classType = _EachFieldOptions(rawValue: 1 << 0)  // `.classType`: `type` is a class
        _forEachField(of: type, options: classType) {
            name, offset, fieldType, _ in
            all.append((String(cString: name), Field(offset: offset, type: fieldType)))
            return true
        }
        let inherited = superclass?.fieldCount ?? 0
        let own = all.dropFirst(inherited)
        let level = Level(type: type, fields: Dictionary(own.map { $0 }, uniquingKeysWith: { first, _ in first }))
        // The runtime reports a noncopyable field's type as `()`; the macro names slots `_$name`.
        let slotOffsets = own.filter { name, field in name.hasPrefix("_$") && field.type == Void.self }.map(\.1.offset)
        let reflected = ReflectedFields(
            levels: [level] + (superclass?.levels ?? []), slotOffsets: slotOffsets + (superclass?.slotOffsets ?? []))
        lock.withLock { cache[ObjectIdentifier(type)] = reflected }
        return reflected
    }

    private var fieldCount: Int { levels.reduce(0) { $0 + $1.fields.count } }
}

/// Any `Optional`, seen through its wrapped type (used by string key paths and `PathProof`).
protocol OptionalProtocol {
    static var wrappedType: Any.Type { get }
    var wrappedValue: Any? { get }
    /// Initialises `destination`, uninitialised memory for this type, with `nil`.
    static func initializeNone(at destination: UnsafeMutableRawPointer)
}

extension Optional: OptionalProtocol {
    static var wrappedType: Any.Type { Wrapped.self }
    var wrappedValue: Any? { self.map { $0 as Any } }
    static func initializeNone(at destination: UnsafeMutableRawPointer) {
        destination.initializeMemory(as: Self.self, to: nil)
    }
}

/// The value inside any number of optionals, `nil` when one of them is `nil`.
func unwrappedOptional(_ value: Any) -> Any? {
    var value = value
    while let optional = value as? OptionalProtocol {
        guard let wrapped = optional.wrappedValue else { return nil }
        value = wrapped
    }
    return value
}
