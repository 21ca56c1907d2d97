@_spi(Reflection) import Swift
import Synchronization

extension KeyValueObservable {
    /// Observes a key path given as a string of property names, as Cocoa and EasyKVO do:
    /// `try person.observe(keyPath: "address.city") { person, change in … }`.
    ///
    /// Each component names an `@Observed` stored property (including one declared in a superclass),
    /// found by reflection: no table to write or keep in sync. The semantics are those of the typed
    /// ``observe(_:options:_:)`` with the same path: every component is a trigger, replacing an
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
    ///     print(error)   // "adress.city": Person has no stored property 'adress'
    /// }
    /// ```
    ///
    /// Resolution reads stored values through `Mirror`, so it is slower than a typed key path (it
    /// runs when a property of the path changes), and a class that customises its `Mirror`
    /// (`CustomReflectable`) cannot be resolved. Computed properties have no string key.
    ///
    /// - Throws: ``KeyPathError`` naming the offending component and the type it was looked up in.
    public func observe(
        keyPath: String,
        options: ObservationOptions = [.old, .new],
        _ handler: @escaping (Self, KeyedChange) -> Void
    ) throws(KeyPathError) -> ObservationToken {
        let path = try StringKeyPath(keyPath, rootType: type(of: self))
        // `\Self.self` stands in for the typed key path a path observation carries: changes are
        // handed on as `KeyedChange`s, which name the string instead.
        let observation = Registration.observePath(
            self, keyPath: InternedKeyPath(\Self.self), evaluate: { path.value(of: $0) },
            evaluated: Tracking.evaluate { path.value(of: self) }, options: options, onObservedDeallocated: nil,
            handler: { root, change in handler(root, KeyedChange(change, keyPath: keyPath)) })
        return ObservationToken(observation)
    }
}

/// One notification of an observation made with a string key path.
///
/// Like ``ObservedChange``, with the values as `Any` and the key path as the string observed.
/// `oldValue` and `newValue` are `nil` when not requested (``ObservationOptions/old``,
/// ``ObservationOptions/new``) and when the value at the path is `nil`.
public struct KeyedChange: CustomStringConvertible {
    /// The kind of change (always ``ObservedChangeKind/setting`` for a string key path).
    public let kind: ObservedChangeKind
    /// The value before the change, unwrapped from any optionals.
    public let oldValue: Any?
    /// The value after the change, unwrapped from any optionals.
    public let newValue: Any?
    /// `true` for the notification sent before the store (``ObservationOptions/prior``).
    public let isPrior: Bool
    /// The string key path that was observed.
    public let keyPath: String

    init(_ change: ObservedChange<Any?>, keyPath: String) {
        kind = change.kind
        oldValue = change.oldValue ?? nil
        newValue = change.newValue ?? nil
        isPrior = change.isPrior
        self.keyPath = keyPath
    }

    public var description: String {
        var parts = ["\(kind)", "\"\(keyPath)\""]
        if isPrior { parts.append("prior") }
        if let oldValue { parts.append("old: \(String(reflecting: oldValue))") }
        if let newValue { parts.append("new: \(String(reflecting: newValue))") }
        return "KeyedChange(\(parts.joined(separator: ", ")))"
    }
}

/// Why a string key path cannot be observed: which component, in which type, and why.
///
/// ```swift
/// catch let error as KeyPathError where error.reason == .unknownKey {
///     print(error.key, error.typeName)   // "adress" "Person"
/// }
/// ```
public struct KeyPathError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Reason: Sendable, Hashable {
        /// The path is empty, or one of its components is (`"address..city"`, `"name."`).
        case emptyComponent
        /// The type has no stored property of that name (or it is computed: those have no string key).
        case unknownKey
        /// The property exists but is not `@Observed`.
        case notObservable
        /// The component follows a value that is not an object with properties to observe
        /// (`"name.count"`: a `String` has none).
        case notAnObject
        /// The type customises its `Mirror` (`CustomReflectable`), so its properties cannot be read.
        case customReflection
    }

    /// Why the path was rejected.
    public let reason: Reason
    /// The offending component (`""` for an empty one).
    public let key: String
    /// The type the component was looked up in, as `String(describing:)` prints it.
    public let typeName: String
    /// The whole string key path.
    public let path: String

    /// Creates an error; the library throws these, tests may compare against them.
    public init(reason: Reason, key: String, typeName: String, path: String) {
        self.reason = reason
        self.key = key
        self.typeName = typeName
        self.path = path
    }

    public var description: String {
        let detail = switch reason {
        case .emptyComponent: "empty key in \(typeName) (components are separated by single dots)"
        case .unknownKey: "\(typeName) has no stored property '\(key)'"
        case .notObservable: "'\(key)' of \(typeName) is not @Observed"
        case .notAnObject: "'\(key)' cannot be looked up in \(typeName): it is not a class with @Observed properties"
        case .customReflection: "\(typeName) customises its Mirror (CustomReflectable), so '\(key)' cannot be read by name"
        }
        return "\"\(path)\": \(detail)"
    }
}

/// A validated string key path: its components, and how to read the value through them while
/// reporting each `@Observed` property read to the tracking frame, as a generated getter does.
struct StringKeyPath: Sendable {
    let components: [String]

    init(_ path: String, rootType: AnyClass) throws(KeyPathError) {
        components = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var type: Any.Type = rootType
        for (position, key) in components.enumerated() {
            let typeName = String(describing: type)
            func fail(_ reason: KeyPathError.Reason) -> KeyPathError {
                KeyPathError(reason: reason, key: key, typeName: typeName, path: path)
            }
            if key.isEmpty { throw fail(.emptyComponent) }
            guard let objectType = type as? AnyClass else { throw fail(.notAnObject) }
            if objectType is CustomReflectable.Type { throw fail(.customReflection) }
            let fields = ReflectedFields.of(objectType)
            guard let property = fields.observedProperty(key) else {
                throw fail(fields.storedField(named: key) == nil ? .unknownKey : .notObservable)
            }
            if position < components.count - 1 { type = unwrappedOptionalType(property.storageType) }
        }
    }

    /// The value at the path from `root`, `nil` when an intermediate or the value is `nil`.
    func value(of root: AnyObject) -> Any? {
        var object = root
        for (position, key) in components.enumerated() {
            guard let property = ReflectedFields.of(type(of: object)).observedProperty(key) else { return nil }
            if let frame = TrackingFrame.current {
                let slot = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
                    .advanced(by: property.slotOffset).assumingMemoryBound(to: _$ObservationSlot.self)
                frame.record(object, slot.pointee.observers(), nil)
            }
            guard let stored = storedValue(property.storageName, in: property.storageClass, of: object),
                  let value = unwrappedOptional(stored) else {
                return nil
            }
            if position == components.count - 1 { return value }
            guard type(of: value) is AnyClass else { return nil }
            object = value as AnyObject
        }
        return nil
    }

    /// The stored property `label` of class `owner` (the object's class or a superclass), read
    /// through `Mirror`, which reads `weak` and `unowned` storage correctly.
    private func storedValue(_ label: String, in owner: AnyClass, of object: AnyObject) -> Any? {
        var mirror: Mirror? = Mirror(reflecting: object)
        while let current = mirror, current.subjectType != owner {
            mirror = current.superclassMirror
        }
        return mirror?.children.first(where: { $0.label == label })?.value
    }
}

/// The stored fields of a class and its superclasses, by name, each class's apart, from the runtime's
/// reflection metadata (computed once per class).
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
        /// The class whose field `storageName` is: a subclass may declare a field of the same name.
        let storageClass: AnyClass
    }

    /// One class's own fields.
    private struct Level: @unchecked Sendable {   // immutable; a class object is immortal
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
                ObservedProperty(slotOffset: slot.offset, storageName: name, storageType: $0.type, storageClass: level.type)
            }
        }
        if let own = property(levels[index], "_" + key) { return own }
        for level in levels[(index + 1)...] {
            if level.fields["_$" + key] != nil, let observed = property(level, "_" + key) { return observed }
            if let plain = property(level, key) { return plain }
        }
        return nil
    }

    private static let lock = Lock()
    nonisolated(unsafe) private static var cache: [ObjectIdentifier: ReflectedFields] = [:]   // guarded by `lock`

    static func of(_ type: AnyClass) -> ReflectedFields {
        if let cached = lock.withLock({ cache[ObjectIdentifier(type)] }) { return cached }
        // The runtime lists a class's fields after its superclasses' (and `_forEachField` lists them
        // all): this class's own are those past its superclass's count.
        let superclass = _getSuperclass(type).map(Self.of)
        var all: [(String, Field)] = []
        _forEachField(of: type, options: _EachFieldOptions(rawValue: 1 << 0) /* .classType */) { name, offset, fieldType, _ in
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
}

extension Optional: OptionalProtocol {
    static var wrappedType: Any.Type { Wrapped.self }
    var wrappedValue: Any? { self.map { $0 as Any } }
}

/// `T` for `T?`, `T??`, …; other types unchanged.
private func unwrappedOptionalType(_ type: Any.Type) -> Any.Type {
    var type = type
    while let optional = type as? OptionalProtocol.Type { type = optional.wrappedType }
    return type
}

/// The value inside any number of optionals, `nil` when one of them is `nil`.
private func unwrappedOptional(_ value: Any) -> Any? {
    var value = value
    while let optional = value as? OptionalProtocol {
        guard let wrapped = optional.wrappedValue else { return nil }
        value = wrapped
    }
    return value
}
