/// The operations that one change of a document's property at `pointer` makes (RFC 6902), each
/// `replace` and `remove` after a `test` of the value it replaces when `testing`.
struct PatchOperations {
    let pointer: JSONPointer
    let testing: Bool

    init(at pointer: JSONPointer, testing: Bool) {
        self.pointer = pointer
        self.testing = testing
    }

    func of(_ change: PropertyChange) throws(PatchRecordingError) -> [JSONPatchOperation] {
        guard change.kind != .setting, let indexes = change.indexes?.ranges.joined(),
            let old = change.oldValue.flatMap(Self.elements), let new = change.newValue.flatMap(Self.elements)
        else { return try setting(from: change.oldValue, to: change.newValue) }
        var operations: [JSONPatchOperation] = []
        switch change.kind {
        case .insertion:
            // Ascending, so that each index is where the element ends up.
            for index in indexes {
                operations.append(
                    JSONPatchOperation(.add(try encoded(new[index])), at: pointer.appending(index: index)))
            }
        case .removal:
            // Descending, so that each index is the element's before any other removal.
            for index in indexes.reversed() {
                try remove(old[index], at: pointer.appending(index: index), into: &operations)
            }
        default:
            for index in indexes {
                let element = pointer.appending(index: index)
                if testing { operations.append(JSONPatchOperation(.test(try encoded(old[index])), at: element)) }
                operations.append(JSONPatchOperation(.replace(try encoded(new[index])), at: element))
            }
        }
        return operations
    }

    /// A property set: an optional one that becomes `nil` is removed, as an encoder leaves it out, and
    /// one that was `nil` is added.
    func setting(from old: Any?, to new: Any?) throws(PatchRecordingError) -> [JSONPatchOperation] {
        var operations: [JSONPatchOperation] = []
        let oldValue = try old.map { (old: Any) throws(PatchRecordingError) in testing ? try encoded(old) : .null }
        setting(from: oldValue, to: try new.map(encoded), into: &operations)
        return operations
    }

    /// A property set, its values encoded (`nil` where there is none; `old` read only when testing).
    func setting(from old: JSONValue?, to new: JSONValue?, into operations: inout [JSONPatchOperation]) {
        switch (old, new) {
        case (nil, nil): break
        case (let old?, nil):
            if testing { operations.append(JSONPatchOperation(.test(old), at: pointer)) }
            operations.append(JSONPatchOperation(.remove, at: pointer))
        case (nil, let new?): operations.append(JSONPatchOperation(.add(new), at: pointer))
        case (let old?, let new?):
            if testing { operations.append(JSONPatchOperation(.test(old), at: pointer)) }
            operations.append(JSONPatchOperation(.replace(new), at: pointer))
        }
    }

    private func remove(_ old: Any, at location: JSONPointer, into operations: inout [JSONPatchOperation])
        throws(PatchRecordingError)
    {
        if testing { operations.append(JSONPatchOperation(.test(try encoded(old)), at: location)) }
        operations.append(JSONPatchOperation(.remove, at: location))
    }

    private func encoded(_ value: Any) throws(PatchRecordingError) -> JSONValue {
        guard let encodable = value as? any Encodable else {
            throw PatchRecordingError(location: pointer.description, reason: .notEncodable(type: "\(type(of: value))"))
        }
        do {
            return try JSONValue(encoding: encodable)
        } catch {
            throw PatchRecordingError(location: pointer.description, reason: .encodingFailed("\(error)"))
        }
    }

    /// The elements of an array, which an encoder writes as a JSON array; `nil` for other values
    /// (`Data`, also changed at indexes, encodes as a string).
    private static func elements(_ value: Any) -> [Any]? {
        guard value is any ObjectContainer, let collection = value as? any RandomAccessCollection else { return nil }
        return elements(of: collection)
    }

    private static func elements<C: RandomAccessCollection>(of collection: C) -> [Any] {
        collection.map { $0 as Any }
    }
}
