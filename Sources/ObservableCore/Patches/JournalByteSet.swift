/// A set of a root's property whose old and new values are bytes (numbers, `Bool`s, none), as a
/// journal keeps it apart from its other entries: every field is trivial, so keeping it, reading it
/// and letting it go retain and release nothing.
struct JournalByteSet {
    private let property: Unmanaged<ObjectProperty>
    private let oldType: Any.Type?
    private let old: KeyedValue.Bytes
    private let newType: Any.Type?
    private let new: KeyedValue.Bytes
    /// How many of the journal's other entries came before it.
    let entriesBefore: Int

    /// The set of `property` from `old` to `new`; `nil` when either is not bytes.
    init?(setting property: Unmanaged<ObjectProperty>, old: KeyedValue, new: KeyedValue, entriesBefore: Int) {
        guard old.isBytes, new.isBytes else { return nil }
        self.property = property
        oldType = old.bytesType
        self.old = old.bytes
        newType = new.bytesType
        self.new = new.bytes
        self.entriesBefore = entriesBefore
    }

    /// Adds its operations to `operations`, as `JournalEntry.append` adds an entry's.
    @inline(__always)
    func append(
        to operations: inout [JSONPatchOperation], testing: Bool, encodings: inout PlainValueEncoding.Cache
    ) throws(PatchRecordingError) {
        // A value replaced, untested (the common case), when a scalar: its `replace` made here.
        if !testing, oldType != nil, let newType, let value = PlainValueEncoding.scalar(newType, new) {
            operations.append(JSONPatchOperation(.replace(value), at: encodings.rootPointer(of: property)))
            return
        }
        try JournalEntry.appendSetting(
            property, from: PlainValue(KeyedValue(oldType, bytes: old)),
            to: PlainValue(KeyedValue(newType, bytes: new)),
            at: nil, to: &operations, testing: testing, encodings: &encodings)
    }
}
