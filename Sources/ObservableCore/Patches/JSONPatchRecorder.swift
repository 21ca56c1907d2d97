/// Records the edits of a document (an object and every object it strongly reaches, as
/// ``ObservedPropertyListing/observeProperties(options:deep:_:)`` follows them) as a JSON Patch
/// (RFC 6902): `replace` for a set, `add` and `remove` at indexes for an array changed in place, a
/// new child encoded whole. Each operation carries the value as it was when set: a value holding
/// objects is encoded then, so a later edit of a child does not change an earlier operation; a
/// plain value (a number, a string) is kept as it is and encoded when the operations are read.
///
/// Properties that are `weak`, `unowned` or hidden from string keys are not part of the document
/// and are not recorded. Recording stops when the recorder is freed or ``stop()`` is called.
public final class JSONPatchRecorder: Sendable {
    private let journal: Journal
    private let token: ObservationToken

    /// Starts recording `document`'s edits.
    ///
    /// - Parameters:
    ///   - document: The document's root object.
    ///   - testingOldValues: Whether each `replace` and `remove` is preceded by a `test` of the value
    ///     it replaces or removes, so that a receiver in another state refuses the patch.
    /// - Throws: ``PatchRecordingError`` naming the first property, in the classes the document holds
    ///   or declares, whose type is not `Encodable` or holds objects in a set.
    public init<Document: ObservedPropertyListing>(recording document: Document, testingOldValues: Bool = false)
        throws(PatchRecordingError)
    {
        let journal = Journal(testsOldValues: testingOldValues)
        try journal.check(document)
        self.journal = journal
        token = ObservationToken(
            ObjectObservations.register(
                document, options: [.old, .new], deep: true, origin: .token, onObservedDeallocated: nil
            ) { (_: AnyObject, change) in journal.record(change) })
    }

    /// The operations recorded since recording started or ``takeOperations()`` was last called.
    ///
    /// - Throws: ``PatchRecordingError`` when a value set since could not be encoded: the patch would
    ///   be missing it.
    public var operations: [JSONPatchOperation] {
        get throws(PatchRecordingError) {
            try journal.operations(forgetting: false)
        }
    }

    /// The operations recorded so far, which the recorder then forgets: the next call returns only
    /// what happens after this one.
    ///
    /// - Throws: ``PatchRecordingError`` when a value set since could not be encoded.
    public func takeOperations() throws(PatchRecordingError) -> [JSONPatchOperation] {
        try journal.operations(forgetting: true)
    }

    /// Stops recording; the operations recorded stay readable.
    public func stop() {
        token.cancel()
    }
}
