/// How a journal encodes one property's plain values (`KeyedValue.isPlain`) when its operations
/// are read: as the property's own type, read from the kept bytes or string without a cast
/// through `Any`. Made once per property a journal meets.
struct PlainValueEncoding {
    /// The pointer to the property of a document's root.
    let rootPointer: JSONPointer
    private let encode: (KeyedValue) throws -> JSONValue?

    init(_ property: ObjectProperty) {
        rootPointer = JSONPointer(tokens: [property.name])
        var type = property.valueType
        // A value is kept unwrapped from its optionals.
        while let optional = type as? any OptionalProtocol.Type { type = optional.wrappedType }
        func typed<Value: Encodable>(_: Value.Type) -> (KeyedValue) throws -> JSONValue? {
            { kept in
                guard let value = kept.value(as: Value.self) else { return nil }
                return try JSONValue(encoding: value)
            }
        }
        if let encodable = type as? any Encodable.Type {
            encode = _openExistential(encodable, do: typed)
        } else {
            let name = "\(type)"
            encode = { kept in
                guard let value = kept.any else { return nil }
                guard let encodable = value as? any Encodable else {
                    throw PatchRecordingError(location: property.name, reason: .notEncodable(type: name))
                }
                return try JSONValue(encoding: encodable)
            }
        }
    }

    /// `kept` encoded, `nil` when there is no value.
    ///
    /// - Throws: ``PatchRecordingError`` naming `pointer` when the value cannot be encoded.
    func encoded(_ kept: KeyedValue, at pointer: JSONPointer) throws(PatchRecordingError) -> JSONValue? {
        // The scalars a document holds most, as they are kept (a `String` is kept as itself only when
        // it is one), without a call.
        if let string = kept.string { return .string(string) }
        if kept.bytesType == Int.self, let value = kept.value(as: Int.self) { return .integer(Int64(value)) }
        if kept.bytesType == Bool.self, let value = kept.value(as: Bool.self) { return .bool(value) }
        do {
            return try encode(kept)
        } catch let error as PatchRecordingError {
            throw PatchRecordingError(location: pointer.description, reason: error.reason)
        } catch {
            throw PatchRecordingError(location: pointer.description, reason: .encodingFailed("\(error)"))
        }
    }
}
