/// The `@Observed` properties of a class as `@KeyValueObservable` lists them: names, storage readers
/// and declarations, its own then its listed superclass's. Written by the macro; do not write one.
/// Readers form outside the class's isolation because the private storage is `nonisolated(unsafe)`.
@_documentation(visibility: internal)
public struct ObservedPropertyList: @unchecked Sendable {  // immutable: entries, closures and a class object
    /// One property: its name, its storage, and how it is declared.
    public struct Entry: @unchecked Sendable {  // immutable
        let name: String
        /// The property's storage; `nil` for an `@Observed override`.
        let storage: Storage?
        let valueType: Any.Type
        let flags: Flags

        /// A property whose storage `read` reads. A closure, not a key path, which would make Swift check
        /// exclusivity at run time on every access.
        public init<Root: AnyObject, Value>(_ name: String, _ read: @escaping (Root) -> Value, _ flags: Flags = []) {
            self.name = name
            self.storage = Storage(read)
            valueType = Value.self
            self.flags = flags
        }

        /// An `@Observed override` of a superclass's property: it reads the superclass's storage.
        public init<Value>(_ name: String, overriding _: Value.Type, _ flags: Flags = [.override]) {
            self.name = name
            storage = nil
            valueType = Value.self
            self.flags = flags
        }
    }

    /// A property's storage: its type, and its value in an instance as `Any` (`nil` for another class).
    struct Storage: @unchecked Sendable {  // immutable: reads storage the class made nonisolated
        let valueType: Any.Type
        let read: (AnyObject) -> Any?

        init<Root: AnyObject, Value>(_ reader: @escaping (Root) -> Value) {
            valueType = Value.self
            // Not `(object as? Root).map(reader)`: unspecialised, that looks up `Value?`'s metadata at every read.
            read = { object in
                guard let root = object as? Root else { return nil }
                return reader(root)
            }
        }

        /// The stored property `name` of the nearest superclass with one, read through `Mirror`: for an
        /// `@Observed override` of a property no list names, which no reader reaches.
        init(mirroring name: String, above type: AnyClass, valueType: Any.Type) {
            self.valueType = valueType
            read = { object in
                var mirror: Mirror? = Mirror(reflecting: object)
                while let current = mirror, ObjectIdentifier(current.subjectType) != ObjectIdentifier(type) {
                    mirror = current.superclassMirror
                }
                mirror = mirror?.superclassMirror
                while let current = mirror {
                    if let child = current.children.first(where: { $0.label == name }) { return child.value }
                    mirror = current.superclassMirror
                }
                return nil
            }
        }
    }

    /// How a property is declared, as far as the runtime must know.
    public struct Flags: OptionSet, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// No string key reaches it: `private` or `fileprivate`, without `@Observed(stringKey: true)`,
        /// or any property with `stringKey: false`.
        public static let hidden = Flags(rawValue: 1 << 0)
        /// Its storage is `weak`.
        public static let weak = Flags(rawValue: 1 << 1)
        /// Its storage is `unowned`.
        public static let unowned = Flags(rawValue: 1 << 2)
        /// It is an `@Observed override` of a superclass's property: a slot, no storage of its own.
        public static let override = Flags(rawValue: 1 << 3)
        /// Its declared type is an existential (`Any`, `AnyObject`, `any P`, a composition).
        public static let existential = Flags(rawValue: 1 << 4)
    }

    /// Where each listed property's slot is in an instance, in the order of the entries.
    public struct SlotOffsets {
        let object: AnyObject
        var offsets: [Int] = []

        /// Appends the offset of `slot`, a field of the instance being described.
        public mutating func append(_ slot: borrowing ObservationSlot) {
            offsets.append(slot.slot.offset(in: object))
        }
    }

    /// The class whose own properties `entries` are.
    let type: AnyClass
    let entries: [Entry]
    /// The list of the nearest listed superclass, whose properties an instance also has.
    private let inheritedList: [ObservedPropertyList]
    private let slots: (AnyObject, inout SlotOffsets) -> Void

    public init<Root: AnyObject>(
        _ type: Root.Type, inheriting inherited: ObservedPropertyList?, _ entries: [Entry],
        slots: @escaping (Root, inout SlotOffsets) -> Void
    ) {
        self.type = type
        self.entries = entries
        inheritedList = inherited.map { [$0] } ?? []
        self.slots = { object, offsets in
            if let root = object as? Root { slots(root, &offsets) }
        }
    }

    var inherited: ObservedPropertyList? { inheritedList.first }

    /// The offsets of this class's own slots in `object`, in the order of `entries`.
    func slotOffsets(in object: AnyObject) -> [Int] {
        var offsets = SlotOffsets(object: object)
        slots(object, &offsets)
        return offsets.offsets
    }
}
