import Foundation

/// Encodes a value straight into a `JSONValue`, as `JSONEncoder` with its default strategies writes
/// it, without the text between: what recording a change and checking a patch encode with. `Data`,
/// `URL` and `Decimal`, which `JSONEncoder` writes its own way, go through it.
enum JSONValueEncoder {
    static func encode<Value: Encodable>(_ value: Value) throws -> JSONValue {
        // The scalars a document holds most, without a node; the metatype is compared first, so that
        // no other value is cast.
        if Value.self == String.self { return .string(value as! String) }
        if Value.self == Int.self { return .integer(Int64(value as! Int)) }
        if Value.self == Bool.self { return .bool(value as! Bool) }
        let node = Node()
        try node.store(value, codingPath: [])
        return node.json
    }

    /// A value being encoded: a scalar, or the members or elements its containers add.
    fileprivate final class Node {
        var scalar: JSONValue = .null
        var members: [(name: String, node: Node)]?
        var elements: [Node]?

        var json: JSONValue {
            if let members { return .object(members.map { ($0.name, $0.node.json) }) }
            if let elements { return .array(elements.map(\.json)) }
            return scalar
        }

        func store<Value: Encodable>(_ value: Value, codingPath: [any CodingKey]) throws {
            if Value.self == Data.self || Value.self == URL.self || Value.self == Decimal.self {
                scalar = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
            } else {
                try value.encode(to: NodeEncoder(node: self, codingPath: codingPath))
            }
        }

        func member(_ name: String) -> Node {
            let node = Node()
            if let index = members?.firstIndex(where: { $0.name == name }) {
                members?[index].node = node
            } else {
                members?.append((name, node))
            }
            return node
        }

        func element() -> Node {
            let node = Node()
            elements?.append(node)
            return node
        }
    }

    private struct NodeEncoder: Encoder {
        let node: Node
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy _: Key.Type) -> KeyedEncodingContainer<Key> {
            if node.members == nil { node.members = [] }
            return KeyedEncodingContainer(Keyed(node: node, codingPath: codingPath))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            if node.elements == nil { node.elements = [] }
            return Unkeyed(node: node, codingPath: codingPath)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            Single(node: node, codingPath: codingPath)
        }
    }

    private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: Node
        let codingPath: [any CodingKey]

        mutating func encodeNil(forKey key: Key) {
            node.member(key.stringValue).scalar = .null
        }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try node.member(key.stringValue).store(value, codingPath: codingPath + [key])
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy _: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            let nested = node.member(key.stringValue)
            nested.members = []
            return KeyedEncodingContainer(Keyed<NestedKey>(node: nested, codingPath: codingPath + [key]))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let nested = node.member(key.stringValue)
            nested.elements = []
            return Unkeyed(node: nested, codingPath: codingPath + [key])
        }

        mutating func superEncoder() -> any Encoder {
            NodeEncoder(node: node.member("super"), codingPath: codingPath)
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            NodeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key])
        }
    }

    private struct Unkeyed: UnkeyedEncodingContainer {
        let node: Node
        let codingPath: [any CodingKey]
        var count: Int { node.elements?.count ?? 0 }

        mutating func encodeNil() {
            node.element().scalar = .null
        }

        mutating func encode<T: Encodable>(_ value: T) throws {
            try node.element().store(value, codingPath: codingPath)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type) -> KeyedEncodingContainer<
            NestedKey
        > {
            let nested = node.element()
            nested.members = []
            return KeyedEncodingContainer(Keyed<NestedKey>(node: nested, codingPath: codingPath))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let nested = node.element()
            nested.elements = []
            return Unkeyed(node: nested, codingPath: codingPath)
        }

        mutating func superEncoder() -> any Encoder {
            NodeEncoder(node: node.element(), codingPath: codingPath)
        }
    }

    /// Each primitive is written here: the default for one would encode it through its own
    /// `encode(to:)`, which asks for this container again.
    private struct Single: SingleValueEncodingContainer {
        let node: Node
        let codingPath: [any CodingKey]

        mutating func encodeNil() { node.scalar = .null }
        mutating func encode(_ value: Bool) { node.scalar = .bool(value) }
        mutating func encode(_ value: String) { node.scalar = .string(value) }
        mutating func encode(_ value: Double) throws { node.scalar = try number(value) }
        mutating func encode(_ value: Float) throws {
            // As JSONEncoder writes it: the float's shortest text, read back as a double.
            node.scalar = try number(value.isFinite ? Double(value.description) ?? Double(value) : Double(value))
        }
        mutating func encode(_ value: Int) { node.scalar = .integer(Int64(value)) }
        mutating func encode(_ value: Int8) { node.scalar = .integer(Int64(value)) }
        mutating func encode(_ value: Int16) { node.scalar = .integer(Int64(value)) }
        mutating func encode(_ value: Int32) { node.scalar = .integer(Int64(value)) }
        mutating func encode(_ value: Int64) { node.scalar = .integer(value) }
        mutating func encode(_ value: UInt) { node.scalar = Self.unsigned(UInt64(value)) }
        mutating func encode(_ value: UInt8) { node.scalar = .integer(Int64(value)) }
        mutating func encode(_ value: UInt16) { node.scalar = .integer(Int64(value)) }
        mutating func encode(_ value: UInt32) { node.scalar = .integer(Int64(value)) }
        mutating func encode(_ value: UInt64) { node.scalar = Self.unsigned(value) }
        mutating func encode<T: Encodable>(_ value: T) throws { try node.store(value, codingPath: codingPath) }

        private static func unsigned(_ value: UInt64) -> JSONValue {
            Int64(exactly: value).map(JSONValue.integer) ?? .number(Double(value))
        }

        /// A double as JSON text reads back: integral ones as integers; not finite, refused as
        /// JSONEncoder refuses it.
        private func number(_ value: Double) throws -> JSONValue {
            guard value.isFinite else {
                throw EncodingError.invalidValue(
                    value, EncodingError.Context(codingPath: codingPath, debugDescription: "\(value) is not valid JSON")
                )
            }
            if value.rounded() == value, let integer = Int64(exactly: value), abs(value) < 1e15 {
                return .integer(integer)
            }
            return .number(value)
        }
    }
}
