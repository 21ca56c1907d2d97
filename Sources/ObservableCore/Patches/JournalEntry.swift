/// One change of a recorded document, as its journal keeps it until the operations are read: a set
/// of plain values (kept as bytes or a string), which no later edit changes, kept as it came and
/// encoded when read, so that recording a set costs no encoding; or operations made when the change
/// happened, because later edits could change its values (they hold objects) or the positions it
/// names (an array changed in place). A struct, so that it is copied without value witnesses.
struct JournalEntry {
    /// The property of a set kept as it came; `nil` for operations made at once.
    private let property: Unmanaged<ObjectProperty>?
    private let old: PlainValue
    private let new: PlainValue
    /// The ways to the property below the root; `nil` for the root's own property.
    private let ways: [[PathStep]]?
    /// The operations made at once; `nil` for a set kept as it came (no array to count references of).
    private let made: [JSONPatchOperation]?

    /// A set of plain values of `property` at `ways`, kept as it came.
    init(setting property: Unmanaged<ObjectProperty>, old: KeyedValue, new: KeyedValue, ways: [[PathStep]]?) {
        self.property = property
        self.old = PlainValue(old)
        self.new = PlainValue(new)
        self.ways = ways
        made = nil
    }

    /// The entry for `change` at `ways`, its operations made now.
    init(making change: PropertyChange, ways: [[PathStep]]?, testing: Bool) throws(PatchRecordingError) {
        var operations: [JSONPatchOperation] = []
        // An object held in several places is encoded at each, so changes at each.
        for pointer in try Self.pointers(ways, change.property) ?? [JSONPointer(tokens: [change.name])] {
            operations += try PatchOperations(at: pointer, testing: testing).of(change)
        }
        property = nil
        old = .none
        new = .none
        self.ways = nil
        made = operations
    }

    /// Adds the entry's operations to `operations`, each `replace` and `remove` after a `test` when
    /// `testing`; `encodings` keeps how each property's plain values are encoded.
    // Inlined: it has one caller, the loop reading the entries.
    @inline(__always)
    func append(
        to operations: inout [JSONPatchOperation], testing: Bool, encodings: inout PlainValueEncoding.Cache
    ) throws(PatchRecordingError) {
        guard let property else {
            operations += made ?? []
            return
        }
        try Self.appendSetting(
            property, from: old, to: new, at: ways, to: &operations, testing: testing, encodings: &encodings)
    }

    /// Adds the operations of a set of `property` from `old` to `new`, at `ways` below the root (`nil`:
    /// the root's own property), as `append` adds them.
    @inline(__always)
    static func appendSetting(
        _ property: Unmanaged<ObjectProperty>, from old: PlainValue, to new: PlainValue, at ways: [[PathStep]]?,
        to operations: inout [JSONPatchOperation], testing: Bool, encodings: inout PlainValueEncoding.Cache
    ) throws(PatchRecordingError) {
        let encoding = encodings.encoding(of: property)
        // A change of the root's property is at its pointer alone, made without an array.
        let pointers = try Self.pointers(ways, property)
        guard let first = pointers == nil ? encoding.rootPointer : pointers?.first else { return }
        // A value replaced, untested (the common case): a `replace` at each pointer, no old value encoded.
        if !testing, !old.isNone, let newValue = try encoding.encoded(new, at: first) {
            if let pointers {
                for pointer in pointers { operations.append(JSONPatchOperation(.replace(newValue), at: pointer)) }
            } else {
                operations.append(JSONPatchOperation(.replace(newValue), at: first))
            }
            return
        }
        let oldValue = try testing ? encoding.encoded(old, at: first) : old.isNone ? nil : .null
        let newValue = try encoding.encoded(new, at: first)
        func add(at pointer: JSONPointer) {
            PatchOperations(at: pointer, testing: testing).setting(from: oldValue, to: newValue, into: &operations)
        }
        if let pointers {
            for pointer in pointers { add(at: pointer) }
        } else {
            add(at: first)
        }
    }

    /// The pointers `ways` lead to; `nil` for no ways (the root's property).
    private static func pointers(_ ways: [[PathStep]]?, _ property: Unmanaged<ObjectProperty>)
        throws(PatchRecordingError) -> [JSONPointer]?
    {
        guard let ways else { return nil }
        var pointers: [JSONPointer] = []
        for steps in ways {
            guard let pointer = JSONPointer(steps: steps) else {
                let valueType = property._withUnsafeGuaranteedRef { $0.valueType }
                throw PatchRecordingError(location: PathStep.text(steps), reason: .objectsInSet(type: "\(valueType)"))
            }
            pointers.append(pointer)
        }
        return pointers
    }
}
