/// How a journal encodes one property's plain values (`PlainValue`) when its operations
/// are read: as the property's own type, read from the kept bytes or string without a cast
/// through `Any`. Made once per property a journal meets, and shared.
final class PlainValueEncoding {
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

    /// `value` encoded, `nil` when there is none.
    ///
    /// - Throws: ``PatchRecordingError`` naming `pointer` when the value cannot be encoded.
    func encoded(_ value: PlainValue, at pointer: JSONPointer) throws(PatchRecordingError) -> JSONValue? {
        // The scalars a document holds most, without a call (a `String` is kept as one only when it is one).
        switch value {
        case .none: return nil
        case .string(let string): return .string(string)
        case .bytes(let type, let bytes):
            if type == Int.self, let int = KeyedValue(type, bytes: bytes).value(as: Int.self) {
                return .integer(Int64(int))
            }
            if type == Bool.self, let bool = KeyedValue(type, bytes: bytes).value(as: Bool.self) { return .bool(bool) }
        }
        let kept = value.kept
        do {
            return try encode(kept)
        } catch let error as PatchRecordingError {
            throw PatchRecordingError(location: pointer.description, reason: error.reason)
        } catch {
            throw PatchRecordingError(location: pointer.description, reason: .encodingFailed("\(error)"))
        }
    }
}

extension PlainValueEncoding {
    /// The encodings a journal made, by property; the last one used is found without hashing, as a
    /// run of sets of one property is common.
    struct Cache {
        private var last: (property: Unmanaged<ObjectProperty>, encoding: PlainValueEncoding)?
        private var made: [ObjectIdentifier: PlainValueEncoding] = [:]

        mutating func encoding(of property: Unmanaged<ObjectProperty>) -> PlainValueEncoding {
            if let last, last.property.toOpaque() == property.toOpaque() { return last.encoding }
            let key = ObjectIdentifier(property.takeUnretainedValue())
            let encoding = made[key] ?? PlainValueEncoding(property.takeUnretainedValue())
            made[key] = encoding
            last = (property, encoding)
            return encoding
        }
    }
}
