import Foundation

/// A JSON value as a tree changed in place: what `JSONValueEncoder` writes into, and what a patch is
/// applied to when it is checked. A node may hold what is read only when a path goes into it (a
/// value not yet encoded, or a JSON value not yet split), so that checking a patch against a
/// document encodes what its paths reach, not the whole document.
final class JSONNode {
    // Every field is used by one thread: a tree is made, changed and read within one call (an
    // encoding, a patch's check), and no access to one overlaps another.
    /// The value, while it has no members or elements: a scalar, or a whole value not yet split.
    @exclusivity(unchecked) var scalar: JSONValue = .null
    /// Changed through `setMember` and `removeMember`, which keep `memberIndexes`.
    @exclusivity(unchecked) private(set) var members: [(name: String, node: JSONNode)]?
    /// Where each member is, by name, once there are more than a few: a lookup is then not a walk
    /// through them all, which made encoding a dictionary quadratic. Made when a lookup needs it.
    @exclusivity(unchecked) private var memberIndexes: [String: Int]?
    @exclusivity(unchecked) var elements: [JSONNode]?
    /// A value whose encoding this node stands for, not yet encoded.
    @exclusivity(unchecked) private var deferred: (any Encodable)?
    /// Whether what is stored below is deferred rather than encoded: a class instance, and any value
    /// but a scalar that a keyed or unkeyed container holds (an array of numbers beside the property a
    /// patch sets is then never encoded).
    let defers: Bool

    init(defers: Bool = false) {
        self.defers = defers
    }

    /// `value`, split when a path goes into it.
    convenience init(_ value: JSONValue, defers: Bool) {
        self.init(defers: defers)
        scalar = value
    }

    /// `object`'s encoding, one level of it written when a path goes into it; what it holds is
    /// deferred in turn.
    convenience init(deferring object: any Encodable) {
        self.init(defers: true)
        deferred = object
    }

    /// The class instances being encoded, outermost first: one met again is a cycle, whose encoding
    /// would never end. Made at the first instance a value holds.
    final class Encoding {
        @exclusivity(unchecked) var objects: [ObjectIdentifier] = []  // one thread's, as a tree's fields
    }

    /// Encodes `value` into this node, or in a tree that defers, keeps it for later: a class
    /// instance, and with `defersValues` any value but a scalar. `encoding`: the instances being
    /// encoded around it.
    func store<Value: Encodable>(
        _ value: Value, codingPath: [any CodingKey], encoding: Encoding? = nil, defersValues: Bool = false
    ) throws {
        if Value.self == Data.self || Value.self == URL.self || Value.self == Decimal.self {
            // As `JSONEncoder` writes them, which is its own way.
            scalar = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
        } else if defers, Value.self is AnyObject.Type || defersValues && !Self.isScalar(Value.self) {
            deferred = value
        } else if Value.self is AnyObject.Type {
            let encoding = encoding ?? Encoding()
            let object = ObjectIdentifier(value as AnyObject)
            guard !encoding.objects.contains(object) else {
                throw EncodingError.invalidValue(
                    value,
                    EncodingError.Context(
                        codingPath: codingPath, debugDescription: "\(Value.self) holds itself: a cycle"))
            }
            encoding.objects.append(object)
            defer { encoding.objects.removeLast() }
            try value.encode(to: Writer(node: self, codingPath: codingPath, encoding: encoding))
        } else {
            try value.encode(to: Writer(node: self, codingPath: codingPath, encoding: encoding))
        }
    }

    /// A type whose encoding is one JSON scalar, cheaper written than kept.
    private static func isScalar(_ type: Any.Type) -> Bool {
        type == String.self || type == Int.self || type == Double.self || type == Bool.self
    }

    /// The member `name`, replacing one of that name.
    func member(_ name: String) -> JSONNode {
        let node = JSONNode(defers: defers)
        setMember(name, node)
        return node
    }

    /// Where the member `name` is in `members` (the first, should a JSON value name one twice).
    func memberIndex(_ name: String) -> Int? {
        guard let members else { return nil }
        guard members.count > 8 else { return members.firstIndex { $0.name == name } }
        if memberIndexes == nil {
            memberIndexes = Dictionary(
                members.enumerated().map { ($0.element.name, $0.offset) }, uniquingKeysWith: { first, _ in first })
        }
        return memberIndexes?[name]
    }

    /// Puts `node` as the member `name`, in place of one of that name or after the others.
    func setMember(_ name: String, _ node: JSONNode) {
        if let index = memberIndex(name) {
            members?[index].node = node
        } else if let count = members?.count {
            members?.append((name, node))
            memberIndexes?[name] = count
        }
    }

    /// Removes the member at `index`, or puts `replacement` in its place, and returns it.
    func removeMember(at index: Int, replacingWith replacement: JSONNode?) -> JSONNode? {
        let removed = members?[index].node
        if let replacement {
            members?[index].node = replacement
        } else {
            members?.remove(at: index)
            // The members after it moved down one.
            memberIndexes = nil
        }
        return removed
    }

    func element() -> JSONNode {
        let node = JSONNode(defers: defers)
        elements?.append(node)
        return node
    }

    /// The value of a tree that defers nothing.
    var json: JSONValue {
        precondition(deferred == nil, "JSONNode.json: a deferred object must be read with value()")
        if let members { return .object(members.map { ($0.name, $0.node.json) }) }
        if let elements { return .array(elements.map(\.json)) }
        return scalar
    }

    /// The value, whole: the objects deferred below it encoded.
    func value() throws(JSONPatchError.Reason) -> JSONValue {
        if let deferred {
            do {
                let whole = JSONNode()
                try whole.store(deferred, codingPath: [])
                return whole.json
            } catch {
                throw .notCodable(type: "\(type(of: deferred))")
            }
        }
        if let members {
            var values: [(name: String, value: JSONValue)] = []
            values.reserveCapacity(members.count)
            for (name, node) in members { values.append((name, try node.value())) }
            return .object(values)
        }
        if let elements {
            var values: [JSONValue] = []
            values.reserveCapacity(elements.count)
            for node in elements { values.append(try node.value()) }
            return .array(values)
        }
        return scalar
    }

    /// Makes the members or elements readable: a deferred value encoded one level, a JSON value split.
    func open() throws(JSONPatchError.Reason) {
        var opened: [ObjectIdentifier] = []
        while let value = deferred {
            deferred = nil
            do {
                try value.encode(to: Writer(node: self, codingPath: [], encoding: nil))
            } catch {
                throw .notCodable(type: "\(type(of: value))")
            }
            // Instances that encode each other as their single value would be deferred in turn for ever.
            if deferred != nil, type(of: value) is AnyClass {
                let object = ObjectIdentifier(value as AnyObject)
                guard !opened.contains(object) else { throw .notCodable(type: "\(type(of: value))") }
                opened.append(object)
            }
        }
        guard members == nil, elements == nil else { return }
        if case .object(let values) = scalar {
            scalar = .null
            members = values.map { ($0.name, JSONNode($0.value, defers: defers)) }
        } else if case .array(let values) = scalar {
            scalar = .null
            elements = values.map { JSONNode($0, defers: defers) }
        }
    }

    /// Takes `other`'s value, which is then not to be used.
    func take(_ other: JSONNode) {
        scalar = other.scalar
        members = other.members
        memberIndexes = other.memberIndexes
        elements = other.elements
        deferred = other.deferred
    }
}

extension JSONNode {
    /// The `Encoder` that writes a value into a node.
    struct Writer: Encoder {
        let node: JSONNode
        let codingPath: [any CodingKey]
        let encoding: Encoding?
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy _: Key.Type) -> KeyedEncodingContainer<Key> {
            if node.members == nil { node.members = [] }
            return KeyedEncodingContainer(Keyed(node: node, codingPath: codingPath, encoding: encoding))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            if node.elements == nil { node.elements = [] }
            return Unkeyed(node: node, codingPath: codingPath, encoding: encoding)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            Single(node: node, codingPath: codingPath, encoding: encoding)
        }
    }

    private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: JSONNode
        let codingPath: [any CodingKey]
        let encoding: Encoding?

        mutating func encodeNil(forKey key: Key) {
            node.member(key.stringValue).scalar = .null
        }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try node.member(key.stringValue).store(
                value, codingPath: codingPath + [key], encoding: encoding, defersValues: true)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy _: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            let nested = node.member(key.stringValue)
            nested.members = []
            return KeyedEncodingContainer(
                Keyed<NestedKey>(node: nested, codingPath: codingPath + [key], encoding: encoding))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let nested = node.member(key.stringValue)
            nested.elements = []
            return Unkeyed(node: nested, codingPath: codingPath + [key], encoding: encoding)
        }

        mutating func superEncoder() -> any Encoder {
            Writer(node: node.member("super"), codingPath: codingPath, encoding: encoding)
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            Writer(node: node.member(key.stringValue), codingPath: codingPath + [key], encoding: encoding)
        }
    }

    private struct Unkeyed: UnkeyedEncodingContainer {
        let node: JSONNode
        let codingPath: [any CodingKey]
        let encoding: Encoding?
        var count: Int { node.elements?.count ?? 0 }

        mutating func encodeNil() {
            node.element().scalar = .null
        }

        mutating func encode<T: Encodable>(_ value: T) throws {
            try node.element().store(value, codingPath: codingPath, encoding: encoding, defersValues: true)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type) -> KeyedEncodingContainer<
            NestedKey
        > {
            let nested = node.element()
            nested.members = []
            return KeyedEncodingContainer(Keyed<NestedKey>(node: nested, codingPath: codingPath, encoding: encoding))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let nested = node.element()
            nested.elements = []
            return Unkeyed(node: nested, codingPath: codingPath, encoding: encoding)
        }

        mutating func superEncoder() -> any Encoder {
            Writer(node: node.element(), codingPath: codingPath, encoding: encoding)
        }
    }

    /// Each primitive is written here: the default for one would encode it through its own
    /// `encode(to:)`, which asks for this container again.
    private struct Single: SingleValueEncodingContainer {
        let node: JSONNode
        let codingPath: [any CodingKey]
        let encoding: Encoding?

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
        mutating func encode<T: Encodable>(_ value: T) throws {
            try node.store(value, codingPath: codingPath, encoding: encoding)
        }

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
