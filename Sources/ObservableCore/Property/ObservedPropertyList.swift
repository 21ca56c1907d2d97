/// The `@Observed` properties of a class as `@KeyValueObservable` lists them
/// (`ObservedPropertyListing._$observedProperties`): for each, its name, a key path to its storage, and
/// how it is declared; the class's own first, then those of the listed superclass it inherits. What
/// the by-name features must know of a class comes from here, written by the macro, rather than from
/// the runtime's reflection metadata. Do not write one; the macro does.
///
/// The storage key paths can be formed outside the class's isolation because the macro declares a
/// listed property's storage `nonisolated(unsafe)`: it is private, and only the property's own
/// accessors and the runtime (on the thread that uses the object) touch it.
@_documentation(visibility: internal)
public struct ObservedPropertyList: @unchecked Sendable {  // immutable; key paths and a class object
    /// One property: its name, its storage, and how it is declared.
    public struct Entry: @unchecked Sendable {  // immutable
        let name: String
        /// The property's storage; `nil` for an `@Observed override`, whose storage is the
        /// superclass's property, and for a storage that carries the user's `willSet`/`didSet`
        /// (kept in the class's isolation).
        let storage: Storage?
        let flags: Flags

        /// A property whose storage is `storage`.
        public init<Root: AnyObject, Value>(_ name: String, _ storage: KeyPath<Root, Value>, _ flags: Flags = []) {
            self.name = name
            self.storage = Storage(storage)
            self.flags = flags
        }

        /// A property without a storage key path: an override, or a storage carrying observers.
        public init(_ name: String, _ flags: Flags) {
            self.name = name
            storage = nil
            self.flags = flags
        }
    }

    /// A property's storage, read through its key path: its type, and its value in an instance of the
    /// class (or of a subclass), as `Any`.
    struct Storage {
        let keyPath: AnyKeyPath
        let valueType: Any.Type
        let read: (AnyObject) -> Any?

        init<Root: AnyObject, Value>(_ keyPath: KeyPath<Root, Value>) {
            self.keyPath = keyPath
            valueType = Value.self
            read = { object in (object as? Root).map { $0[keyPath: keyPath] } }
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

    /// Where each listed property's slot is in an instance, in the order of the entries: the macro's
    /// `slots` closure appends each slot of the instance it is given.
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

    /// The list of the nearest listed superclass.
    var inherited: ObservedPropertyList? { inheritedList.first }

    /// The offsets of this class's own slots in `object`, an instance of `type` or of a subclass, in
    /// the order of `entries`.
    func slotOffsets(in object: AnyObject) -> [Int] {
        var offsets = SlotOffsets(object: object)
        slots(object, &offsets)
        return offsets.offsets
    }
}
