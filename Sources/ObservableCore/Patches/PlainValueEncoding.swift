/// How a journal encodes one property's plain values (`PlainValue`) when its operations
/// are read: as the property's own type, read from the kept bytes or string without a cast
/// through `Any`. Made once per property a journal meets, and shared.
final class PlainValueEncoding {
    /// The pointer to the property of a document's root.
    let rootPointer: JSONPointer
    private let encode: (KeyedValue) throws -> JSONValue?

    init(_ property: ObjectProperty) {
        rootPointer = JSONPointer(tokens: [property.name])
        // A value is kept unwrapped from its optionals.
        let type = unwrappedOptionalType(property.valueType)
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
        case .bytes(let type, let bytes): if let scalar = Self.scalar(type, bytes) { return scalar }
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
    /// The value of `type` kept as `bytes` encoded without a call, for the scalars a document holds
    /// most (`Int`, `Bool`); `nil` for any other type.
    @inline(__always)
    static func scalar(_ type: Any.Type, _ bytes: KeyedValue.Bytes) -> JSONValue? {
        if type == Int.self, let int = KeyedValue(type, bytes: bytes).value(as: Int.self) {
            return .integer(Int64(int))
        }
        if type == Bool.self, let bool = KeyedValue(type, bytes: bytes).value(as: Bool.self) { return .bool(bool) }
        return nil
    }
}

extension PlainValueEncoding {
    /// The encodings a journal made, by property; the last one used is found without hashing, as a
    /// run of sets of one property is common.
    struct Cache {
        /// The property last used, its encoding and the pointer to it at a root, apart, so that
        /// reading the pointer copies nothing else.
        private var lastProperty: Unmanaged<ObjectProperty>?
        private var lastEncoding: PlainValueEncoding?
        private var lastRootPointer = JSONPointer(tokens: [])
        private var made: [ObjectIdentifier: PlainValueEncoding] = [:]

        /// The pointer to `property` of a document's root: `encoding(of:).rootPointer`.
        mutating func rootPointer(of property: Unmanaged<ObjectProperty>) -> JSONPointer {
            if lastProperty?.toOpaque() != property.toOpaque() { _ = encoding(of: property) }
            return lastRootPointer
        }

        mutating func encoding(of property: Unmanaged<ObjectProperty>) -> PlainValueEncoding {
            if lastProperty?.toOpaque() == property.toOpaque(), let lastEncoding { return lastEncoding }
            let key = ObjectIdentifier(property.takeUnretainedValue())
            let encoding = made[key] ?? PlainValueEncoding(property.takeUnretainedValue())
            made[key] = encoding
            (lastProperty, lastEncoding, lastRootPointer) = (property, encoding, encoding.rootPointer)
            return encoding
        }
    }
}
