import Synchronization

/// Records the edits of a document (an object and every object it strongly reaches, as
/// ``ObservedPropertyListing/observeProperties(options:deep:_:)`` follows them) as a JSON Patch
/// (RFC 6902): `replace` for a set, `add` and `remove` at indexes for an array changed in place, a
/// new child encoded whole. A property's value is encoded when it is set, so a later edit of a child
/// does not change what an earlier operation carries.
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
        token = document.observeProperties(options: [.old, .new], deep: true) { _, change in
            journal.record(change)
        }
    }

    /// The operations recorded since recording started or ``takeOperations()`` was last called.
    ///
    /// - Throws: ``PatchRecordingError`` when a value set since could not be encoded: the patch would
    ///   be missing it.
    public var operations: [JSONPatchOperation] {
        get throws(PatchRecordingError) {
            try journal.state.withLock { state throws(PatchRecordingError) in
                if let failure = state.failure { throw failure }
                return state.operations
            }
        }
    }

    /// The operations recorded so far, which the recorder then forgets: the next call returns only
    /// what happens after this one.
    ///
    /// - Throws: ``PatchRecordingError`` when a value set since could not be encoded.
    public func takeOperations() throws(PatchRecordingError) -> [JSONPatchOperation] {
        try journal.state.withLock { state throws(PatchRecordingError) in
            if let failure = state.failure { throw failure }
            defer { state.operations.removeAll() }
            return state.operations
        }
    }

    /// Stops recording; the operations recorded stay readable.
    public func stop() {
        token.cancel()
    }
}

/// What a recorder keeps, apart from its observation's token, which holds it.
private final class Journal: Sendable {
    struct State {
        var operations: [JSONPatchOperation] = []
        var failure: PatchRecordingError?
        /// The classes whose properties were checked.
        var checked: Set<ObjectIdentifier> = []
    }

    let testsOldValues: Bool
    let state = Mutex(State())

    init(testsOldValues: Bool) {
        self.testsOldValues = testsOldValues
    }

    /// Checks the classes `document` holds now and those its properties declare.
    func check(_ document: AnyObject) throws(PatchRecordingError) {
        var seen: Set<ObjectIdentifier> = []
        var classes: [AnyClass] = []
        var pending: [AnyObject] = [document]
        while let object = pending.popLast() {
            guard seen.insert(ObjectIdentifier(object)).inserted else { continue }
            classes.append(type(of: object))
            for property in ObjectProperties.of(object) where property.followsObjects {
                pending += ObjectContents.objects(in: property.currentValue(in: object))
            }
        }
        try state.withLock { state throws(PatchRecordingError) in
            for type in classes { try Self.check(type, checked: &state.checked) }
        }
    }

    private static func check(_ type: AnyClass, checked: inout Set<ObjectIdentifier>) throws(PatchRecordingError) {
        guard checked.insert(ObjectIdentifier(type)).inserted, let listed = ListedProperties.of(type) else { return }
        for property in listed.declared where Self.records(property.flags) {
            let location = "\(type).\(property.name)"
            let valueType = property.storage.valueType
            guard property.flags.contains(.existential) || valueType is any Encodable.Type else {
                throw PatchRecordingError(location: location, reason: .notEncodable(type: "\(valueType)"))
            }
            try checkContents(of: valueType, declaredAs: valueType, at: location, checked: &checked)
        }
    }

    /// Checks the classes a value of `type` may hold, and that none is held in a set.
    private static func checkContents(
        of type: Any.Type, declaredAs declared: Any.Type, at location: String, checked: inout Set<ObjectIdentifier>
    ) throws(PatchRecordingError) {
        if let object = type as? AnyClass, type is any KeyValueObservable.Type {
            try check(object, checked: &checked)
        } else if let container = type as? any ObjectContainer.Type {
            guard container.hasPositions || !container.mayHoldObjects else {
                throw PatchRecordingError(location: location, reason: .objectsInSet(type: "\(declared)"))
            }
            try checkContents(of: container.elementType, declaredAs: declared, at: location, checked: &checked)
        }
    }

    /// Whether a property with `flags` is part of the document.
    static func records(_ flags: ObservedPropertyList.Flags) -> Bool {
        flags.isDisjoint(with: [.weak, .unowned, .hidden])
    }

    func record(_ change: PropertyChange) {
        let (flags, valueType, holdsObjects) = change.property._withUnsafeGuaranteedRef {
            ($0.flags, $0.valueType, $0.followsObjects)
        }
        guard Self.records(flags), !change.isPrior else { return }
        do throws(PatchRecordingError) {
            guard let pointers = change.pointers else {
                throw PatchRecordingError(location: change.path, reason: .objectsInSet(type: "\(valueType)"))
            }
            if holdsObjects, let newValue = change.newValue { try checkArrivals(in: newValue) }
            // An object held in several places is encoded at each, so changes at each.
            var operations: [JSONPatchOperation] = []
            for pointer in pointers {
                operations += try PatchOperations(at: pointer, testing: testsOldValues).of(change)
            }
            state.withLock { $0.operations += operations }
        } catch {
            state.withLock { state in
                if state.failure == nil { state.failure = error }
            }
        }
    }

    /// Checks the classes of objects a set brings into the document.
    private func checkArrivals(in value: Any) throws(PatchRecordingError) {
        let classes = ObjectContents.objects(in: value).map { type(of: $0) }
        guard !classes.isEmpty else { return }
        try state.withLock { state throws(PatchRecordingError) in
            for type in classes { try Self.check(type, checked: &state.checked) }
        }
    }
}
