import Foundation

extension ObservedPropertyListing {
    /// Applies `patch` (RFC 6902) to this document (this object and what it strongly reaches), through
    /// the properties' setters, so that observers, ``ChangeTracker``, ``UndoHistory`` and SwiftUI
    /// see each edit. An array changed at an index is set whole through its setter, so observers see
    /// a setting, not an insertion or a removal.
    ///
    /// The whole patch is checked before anything is set: every path reaches a property a string
    /// key may reach, every value decodes as the type it goes to, every index is in range and every
    /// `test` holds (checked against the document's JSON with the earlier operations applied). On any
    /// failure nothing is set. A `move` or `copy` places a value decoded from what is at `from`, as
    /// JSON has it: a new object, not the one moved. The document's classes must be `Codable`; a
    /// property a patch sets is one the class encodes. Call it where the document's setters may be
    /// called (on the main actor for a `@MainActor` class).
    ///
    /// - Throws: ``JSONPatchError`` naming the first operation that cannot be applied and why.
    public func apply(_ patch: [JSONPatchOperation]) throws(JSONPatchError) {
        for edit in try PatchPlan(patch, for: self).edits {
            // Checked above: only the document's own code, setting it meanwhile, makes this fail.
            guard edit.perform(on: self) else {
                throw JSONPatchError(index: edit.index, operation: patch[edit.index], reason: .notFound(edit.pointer))
            }
        }
    }
}

/// A patch checked against a document, as the edits its setters will make, in order.
struct PatchPlan {
    private(set) var edits: [PlannedEdit] = []

    init(_ patch: [JSONPatchOperation], for document: AnyObject) throws(JSONPatchError) {
        guard !patch.isEmpty else { return }
        guard let encodable = document as? any Encodable else {
            throw JSONPatchError(index: 0, operation: patch[0], reason: .notCodable(type: "\(type(of: document))"))
        }
        // The document's JSON, each object encoded only when an operation's path goes into it.
        let json = JSONNode(deferring: encodable)
        for (index, operation) in patch.enumerated() {
            do throws(JSONPatchError.Reason) {
                // Only a move or a copy reads the value before it.
                let before: JSONValue?
                switch operation.operation {
                case .move(let from), .copy(let from): before = try json.node(at: from.tokens)?.value()
                default: before = nil
                }
                try json.apply(operation)
                try plan(operation, index: index, in: document, moved: before)
            } catch {
                throw JSONPatchError(index: index, operation: operation, reason: error)
            }
        }
    }

    private mutating func plan(
        _ operation: JSONPatchOperation, index: Int, in document: AnyObject, moved: JSONValue?
    ) throws(JSONPatchError.Reason) {
        let path = operation.path
        switch operation.operation {
        case .test: break
        case .remove: edits.append(try PlannedEdit(removing: path, index: index, in: document))
        case .add(let value):
            edits.append(try PlannedEdit(placing: value, at: path, adding: true, index: index, in: document))
        case .replace(let value):
            edits.append(try PlannedEdit(placing: value, at: path, adding: false, index: index, in: document))
        case .move(let from):
            guard from != path, let value = moved else { return }
            edits.append(try PlannedEdit(removing: from, index: index, in: document))
            edits.append(try PlannedEdit(placing: value, at: path, adding: true, index: index, in: document))
        case .copy(let from):
            guard let value = moved else { throw .notFound(from) }
            edits.append(try PlannedEdit(placing: value, at: path, adding: true, index: index, in: document))
        }
    }
}

/// One edit a patch makes through a setter: a property set, or a place inside its value edited.
struct PlannedEdit {
    enum Change {
        case set(Any)
        case edit(ValueEdit)
    }

    /// The operation's position in the patch.
    let index: Int
    let pointer: JSONPointer
    let place: PatchPlace
    let change: Change

    init(removing pointer: JSONPointer, index: Int, in document: AnyObject) throws(JSONPatchError.Reason) {
        self.index = index
        self.pointer = pointer
        place = try PatchPlace(pointer, in: document)
        if place.inner.isEmpty {
            guard place.type is any OptionalProtocol.Type else { throw .notRemovable(place.property) }
            change = .set(try Self.decoded(.null, as: place.type))
        } else {
            change = .edit(.remove)
        }
        try place.checkSettable()
    }

    init(placing value: JSONValue, at pointer: JSONPointer, adding: Bool, index: Int, in document: AnyObject)
        throws(JSONPatchError.Reason)
    {
        self.index = index
        self.pointer = pointer
        place = try PatchPlace(pointer, in: document)
        let decoded = try Self.decoded(value, as: place.type)
        if place.inner.isEmpty {
            change = .set(decoded)
        } else {
            change = .edit(adding ? .add(decoded) : .replace(decoded))
        }
        // What the value brings, the classes of its objects, is learnt for the edits after this one.
        PatchPlace.learnClasses(in: decoded)
        try place.checkSettable()
    }

    func perform(on document: AnyObject) -> Bool {
        guard let owner = place.owner(in: document),
            let keyPath = PropertyKeyPaths.keyPath(of: place.property, in: owner) as? any PatchWritableKeyPath
        else { return false }
        switch change {
        case .set(let value): return keyPath.set(value, on: owner)
        case .edit(let edit): return keyPath.edit(edit, at: place.inner[...], on: owner)
        }
    }

    private static func decoded(_ value: JSONValue, as type: Any.Type) throws(JSONPatchError.Reason) -> Any {
        if let scalar = scalar(value, as: type) { return scalar }
        guard let decodable = type as? any Decodable.Type else { throw .notCodable(type: "\(type)") }
        do {
            return try decodedValue(value, as: decodable)
        } catch {
            throw .typeMismatch(type: "\(type)", "\(error)")
        }
    }

    /// `value` as a `String`, `Bool`, `Int` or `Double` when it is exactly one, as `JSONDecoder` decodes
    /// it, without the round trip through text; `nil` for anything else, which `JSONDecoder` decodes
    /// or refuses.
    private static func scalar(_ value: JSONValue, as type: Any.Type) -> Any? {
        switch value {
        case .string(let string) where type == String.self: string
        case .bool(let bool) where type == Bool.self: bool
        case .integer(let integer) where type == Int.self: Int(exactly: integer).map { $0 as Any }
        case .number(let number) where type == Double.self && number.isFinite: number
        default: nil
        }
    }

    private static func decodedValue<Value: Decodable>(_ value: JSONValue, as _: Value.Type) throws -> Value {
        try JSONDecoder().decode(Value.self, from: JSONEncoder().encode(value))
    }
}
