/// A path proven to be pure navigation through `@Observed` properties (see `PathProof`), read
/// through the fields that store them: no `KeyPath` projection and no tracking. For each property it
/// knows the class it is read on and the offsets of its slot (`ListSlot`, for the property's list)
/// and of its storage (`_name`, for the value). A path that moves (an intermediate object replaced)
/// is read this way at each change, and every registration of the path on the same root class after
/// the first is too: a class check and a load per property, where the key path's generic projection
/// and a tracking evaluation cost microseconds.
///
/// Assumes what its construction checks once, and `read` checks on every object: each object is of
/// exactly the class of its step, whose getter returns its storage field, declared by that class,
/// of the property's own type and held strongly (not `weak` or `unowned`:
/// `TrackedProperty.storedStrongly`), so the field's contents are the getter's value; each
/// property but the last holds a class reference, or an optional one (one word, `nil` as zero),
/// which construction checked against the object the getter returned. An object of any other class
/// ends the read, and the path is evaluated instead. Proved by `StoredPathTests` (reads against the
/// key path on random models, subclasses, `weak` and `unowned` storage, generic classes) and
/// `ProofEquivalenceTests`, under AddressSanitizer in `.ci/run`.
final class StoredPath: @unchecked Sendable {  // immutable
    /// One property: plain values, so that walking the steps retains nothing.
    private struct Step {
        let objectType: ObjectIdentifier
        let slotOffset: Int
        let storageOffset: Int
    }

    private let steps: [Step]
    /// How the path's value is made from its last property's (see `PathProof`).
    let leaf: LeafConversion
    /// The path's value type when it is optional (a chain through an optional property): its `nil`
    /// is the value when an intermediate object is `nil`.
    private let none: (any OptionalProtocol.Type)?

    /// The path that `accesses`, the reads of a tracking evaluation proven to be `leaf`'s path,
    /// describe, if each of its properties is stored as assumed above; `nil` otherwise.
    init?(_ accesses: [TrackedAccess], leaf: LeafConversion, valueType: Any.Type) {
        var steps: [Step] = []
        for (index, access) in accesses.enumerated() {
            guard let keyPath = access.keyPath, access.property?.storedStrongly == true else {
                return nil
            }
            let objectType: AnyClass = type(of: access.object)
            let fields = ReflectedFields.of(objectType)
            guard
                let slotOffset = access.slotOffset,
                let name = fields.slotName(atOffset: slotOffset),
                let stored = fields.observedProperty(name), stored.slotOffset == slotOffset,
                stored.storageName == ObservedNames.storage(of: name),
                ObjectIdentifier(stored.storageClass) == ObjectIdentifier(objectType),
                ObjectIdentifier(stored.storageType) == ObjectIdentifier(type(of: keyPath).valueType)
            else { return nil }
            if index < accesses.count - 1 {
                // The next object must be what the field holds, as a plain reference.
                guard Self.isReference(stored.storageType),
                    Self.field(of: access.object, at: stored.storageOffset).load(as: AnyObject?.self)
                        === accesses[index + 1].object
                else { return nil }
            }
            steps.append(
                Step(
                    objectType: ObjectIdentifier(objectType), slotOffset: slotOffset,
                    storageOffset: stored.storageOffset))
        }
        guard !steps.isEmpty else { return nil }
        self.steps = steps
        self.leaf = leaf
        self.none = leaf.wrap == nil ? nil : valueType as? any OptionalProtocol.Type
    }

    /// Where a read of the path ended (the value is made from it by `value(at:as:)`; not generic,
    /// so that the read needs no type metadata where it is not specialised).
    enum End {
        /// At the last property's storage, `field`, in `object` (which the end keeps alive).
        case leaf(object: AnyObject, field: UnsafeRawPointer)
        /// At an intermediate object that is `nil`: the path's value is `nil`.
        case none
    }

    /// Reads the path from `root`, appending what it reads to `accesses`: each object with its
    /// property's list, as a tracking evaluation records them (without the key paths a proof would
    /// need: this path is proven). `nil` when an object is not of its step's class.
    func read(_ root: AnyObject, recording accesses: inout [TrackedAccess]) -> End? {
        accesses.reserveCapacity(steps.count)
        return walk(root) { object, step in
            accesses.append(
                TrackedAccess(
                    object: object, list: ListSlot.at(step.slotOffset, in: object).pointee.observers(),
                    keyPath: nil, property: nil))
        }
    }

    /// Reads the path from `root`; `nil` when an object is not of its step's class.
    func read(_ root: AnyObject) -> End? {
        walk(root) { _, _ in }
    }

    /// The path's value where a read ended.
    func value<Value>(at end: End, as _: Value.Type) -> Value {
        if case .leaf(let object, let field) = end, leaf.wrap == nil {
            return withExtendedLifetime(object) { BorrowedValue(address: field).read(as: Value.self) }
        }
        // In code that is not specialised, a temporary allocation's closure would cost a metadata
        // lookup, several times a small allocation.
        let cell = UnsafeMutablePointer<Value>.allocate(capacity: 1)
        defer { cell.deallocate() }
        initialize(UnsafeMutableRawPointer(cell), at: end, as: Value.self)
        return cell.move()
    }

    /// Initialises `destination`, uninitialised memory for a `Value`, with the path's value where a
    /// read ended.
    func initialize<Value>(_ destination: UnsafeMutableRawPointer, at end: End, as _: Value.Type) {
        switch end {
        case .leaf(let object, let field):
            withExtendedLifetime(object) {
                let value = BorrowedValue(address: field)
                if let wrap = leaf.wrap {
                    wrap(value, destination)
                } else {
                    destination.initializeMemory(as: Value.self, to: value.read(as: Value.self))
                }
            }
        case .none:
            none.unsafelyUnwrapped.initializeNone(at: destination)
        }
    }

    /// `leaf` when `accesses`, a read of this path, reached its last property (no intermediate
    /// object was `nil`); `nil` otherwise, as for a tracking evaluation that is not proven.
    func leaf(after accesses: [TrackedAccess]) -> LeafConversion? {
        accesses.count == steps.count ? leaf : nil
    }

    private func walk(_ root: AnyObject, _ visit: (AnyObject, Step) -> Void) -> End? {
        var object = root
        var index = 0
        while true {
            let step = steps[index]
            guard ObjectIdentifier(type(of: object)) == step.objectType else { return nil }
            visit(object, step)
            let field = Self.field(of: object, at: step.storageOffset)
            if index == steps.count - 1 { return .leaf(object: object, field: field) }
            guard let next = field.load(as: AnyObject?.self) else { return none == nil ? nil : End.none }
            object = next
            index += 1
        }
    }

    /// The address of the field at `offset` in `object`, which the caller keeps alive.
    private static func field(of object: AnyObject, at offset: Int) -> UnsafeRawPointer {
        UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()).advanced(by: offset)
    }

    /// Whether a value of `type` is a class reference or an optional one: one word, `nil` as zero.
    private static func isReference(_ type: Any.Type) -> Bool {
        type is AnyClass || (type as? any OptionalProtocol.Type)?.wrappedType is AnyClass
    }
}
