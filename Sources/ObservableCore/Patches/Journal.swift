/// What a recorder keeps, apart from its observation's token, which holds it. A change is kept as
/// it comes (`JournalEntry`) and made into operations when they are read.
final class Journal: @unchecked Sendable {  // `state` guarded by `lock`
    private struct State {
        /// The operations made from entries already read.
        var operations: [JSONPatchOperation] = []
        /// The entries since, in the order of their changes.
        var entries: [JournalEntry] = []
        /// The sets of bytes since, kept apart (`JournalByteSet`), in the order of their changes.
        var byteSets: [JournalByteSet] = []
        var failure: PatchRecordingError?
        /// The classes whose properties were checked.
        var checked: Set<ObjectIdentifier> = []
    }

    let testsOldValues: Bool
    private let lock = ShortLock()
    @exclusivity(unchecked) private var state = State()
    /// Held while entries are made into operations (values are encoded then, outside `lock`, so a
    /// set meanwhile is recorded), so that two readers add their operations in order.
    private let reading = Lock()
    /// How each property's plain values are encoded; guarded by `reading`.
    @exclusivity(unchecked) private var encodings = PlainValueEncoding.Cache()

    init(testsOldValues: Bool) {
        self.testsOldValues = testsOldValues
    }

    /// The operations recorded, forgotten after when `forgetting`.
    func operations(forgetting: Bool) throws(PatchRecordingError) -> [JSONPatchOperation] {
        let result = reading.withLock { () -> Result<[JSONPatchOperation], PatchRecordingError> in
            let (entries, byteSets) = lock.withLock {
                // Room for as many as were taken, so that the next ones are not moved as they come.
                var taken: ([JournalEntry], [JournalByteSet]) = ([], [])
                taken.0.reserveCapacity(state.entries.count)
                taken.1.reserveCapacity(state.byteSets.count)
                swap(&taken.0, &state.entries)
                swap(&taken.1, &state.byteSets)
                return taken
            }
            var made: [JSONPatchOperation] = []
            made.reserveCapacity(entries.count + byteSets.count)
            var failure: PatchRecordingError?
            do throws(PatchRecordingError) {
                // The two kinds of entry merged back into the order of their changes; each borrowed.
                var nextByteSet = 0
                func makeByteSets(before index: Int) throws(PatchRecordingError) {
                    while nextByteSet < byteSets.count, byteSets[nextByteSet].entriesBefore <= index {
                        try byteSets[nextByteSet].append(to: &made, testing: testsOldValues, encodings: &encodings)
                        nextByteSet += 1
                    }
                }
                for index in entries.indices {
                    try makeByteSets(before: index)
                    try entries[index].append(to: &made, testing: testsOldValues, encodings: &encodings)
                }
                try makeByteSets(before: .max)
            } catch {
                failure = error
            }
            return lock.withLock {
                if state.operations.isEmpty { state.operations = made } else { state.operations += made }
                if state.failure == nil { state.failure = failure }
                if let failure = state.failure { return .failure(failure) }
                defer { if forgetting { state.operations.removeAll() } }
                return .success(state.operations)
            }
        }
        return try result.get()
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
        try check(classes)
    }

    private func check(_ classes: [AnyClass]) throws(PatchRecordingError) {
        let failure = lock.withLock { () -> PatchRecordingError? in
            do throws(PatchRecordingError) {
                for type in classes { try Self.check(type, checked: &state.checked) }
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
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
        let (flags, holdsObjects) = change.property._withUnsafeGuaranteedRef { ($0.flags, $0.followsObjects) }
        guard Self.records(flags), !change.isPrior else { return }
        if change.kind == .setting, !holdsObjects, !flags.contains(.existential), change.old.isPlain,
            change.new.isPlain
        {
            // Values of the property's own type that no later edit can change: encoded when read.
            guard change.isBelowRoot else {
                lock.withLock {
                    if let byteSet = JournalByteSet(
                        setting: change.property, old: change.old, new: change.new, entriesBefore: state.entries.count)
                    {
                        state.byteSets.append(byteSet)
                    } else {
                        state.entries.append(
                            JournalEntry(setting: change.property, old: change.old, new: change.new, ways: nil))
                    }
                }
                return
            }
            let entry = JournalEntry(
                setting: change.property, old: change.old, new: change.new, ways: change.everySteps)
            lock.withLock { state.entries.append(entry) }
            return
        }
        let ways = change.waysBelowRoot
        do throws(PatchRecordingError) {
            if holdsObjects, let newValue = change.newValue { try checkArrivals(in: newValue) }
            let entry = try JournalEntry(making: change, ways: ways, testing: testsOldValues)
            lock.withLock { state.entries.append(entry) }
        } catch {
            lock.withLock {
                if state.failure == nil { state.failure = error }
            }
        }
    }

    /// Checks the classes of objects a set brings into the document.
    private func checkArrivals(in value: Any) throws(PatchRecordingError) {
        let classes = ObjectContents.objects(in: value).map { type(of: $0) }
        if !classes.isEmpty { try check(classes) }
    }
}
