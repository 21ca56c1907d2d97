/// One change of a recorded document, as its journal keeps it until the operations are read.
enum JournalEntry {
    /// A set of values kept as bytes or a string, which no later edit changes, at `ways` (`nil` for
    /// the root's property): encoded when read, so that recording a set costs no encoding.
    case setting(Unmanaged<ObjectProperty>, old: KeyedValue, new: KeyedValue, ways: [[PathStep]]?)
    /// Operations made when the change happened, because later edits could change its values (they
    /// hold objects) or the positions it names (an array changed in place).
    case made([JSONPatchOperation])

    /// The entry for `change` at `ways`, its operations made now.
    static func made(of change: PropertyChange, ways: [[PathStep]]?, testing: Bool) throws(PatchRecordingError)
        -> JournalEntry
    {
        var operations: [JSONPatchOperation] = []
        // An object held in several places is encoded at each, so changes at each.
        for pointer in try pointers(ways, change.property) {
            operations += try PatchOperations(at: pointer, testing: testing).of(change)
        }
        return .made(operations)
    }

    /// Adds the entry's operations to `operations`, each `replace` and `remove` after a `test` when
    /// `testing`; `encodings` keeps how each property's plain values are encoded.
    func append(
        to operations: inout [JSONPatchOperation], testing: Bool,
        encodings: inout [ObjectIdentifier: PlainValueEncoding]
    ) throws(PatchRecordingError) {
        switch self {
        case .made(let made):
            operations += made
        case .setting(let property, let old, let new, let ways):
            let key = ObjectIdentifier(property.takeUnretainedValue())
            let encoding: PlainValueEncoding
            if let known = encodings[key] {
                encoding = known
            } else {
                encoding = PlainValueEncoding(property.takeUnretainedValue())
                encodings[key] = encoding
            }
            let pointers = try ways == nil ? [encoding.rootPointer] : Self.pointers(ways, property)
            guard let first = pointers.first else { return }
            let oldValue = try old.isNone ? nil : testing ? encoding.encoded(old, at: first) : .null
            let newValue = try encoding.encoded(new, at: first)
            for pointer in pointers {
                PatchOperations(at: pointer, testing: testing).setting(from: oldValue, to: newValue, into: &operations)
            }
        }
    }

    private static func pointers(_ ways: [[PathStep]]?, _ property: Unmanaged<ObjectProperty>)
        throws(PatchRecordingError) -> [JSONPointer]
    {
        let (name, valueType) = property._withUnsafeGuaranteedRef { ($0.name, $0.valueType) }
        guard let ways else { return [JSONPointer(tokens: [name])] }
        var pointers: [JSONPointer] = []
        for steps in ways {
            guard let pointer = JSONPointer(steps: steps) else {
                throw PatchRecordingError(location: PathStep.text(steps), reason: .objectsInSet(type: "\(valueType)"))
            }
            pointers.append(pointer)
        }
        return pointers
    }
}
