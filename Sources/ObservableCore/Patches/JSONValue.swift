/// A JSON value, as a patch operation carries one (RFC 8259): what a property's value encodes to.
/// Integers that fit an `Int64` stay integers, so that a value decodes back to the type it came from.
public enum JSONValue: Hashable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number without a fraction or exponent that fits an `Int64`.
    case integer(Int64)
    /// Any other number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// Members in the order they were read or written; a name appears once.
    case object([(name: String, value: JSONValue)])

    /// The member named `name` of an object; `nil` for a missing member or a value that is not an object.
    public subscript(member name: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.name == name }?.value
    }

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let l), .bool(let r)): l == r
        case (.integer(let l), .integer(let r)): l == r
        case (.number(let l), .number(let r)): l == r
        case (.integer(let l), .number(let r)), (.number(let r), .integer(let l)): Double(exactly: l) == r
        case (.string(let l), .string(let r)): l == r
        case (.array(let l), .array(let r)): l == r
        case (.object(let l), .object(let r)): Self.sameMembers(l, r)
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(value)
        // An integer and the number equal to it hash alike.
        case .integer(let value): hasher.combine(Double(value))
        case .number(let value): hasher.combine(value)
        case .string(let value): hasher.combine(value)
        case .array(let values): hasher.combine(values)
        // Members are unordered (RFC 8259): combined so that their order does not matter.
        case .object(let members):
            hasher.combine(members.count)
            hasher.combine(members.reduce(0) { $0 ^ Self.hash(of: $1) })
        }
    }

    /// Objects are equal when they have the same names with equal values, in any order (RFC 6902,
    /// section 4.6).
    private static func sameMembers(
        _ lhs: [(name: String, value: JSONValue)], _ rhs: [(name: String, value: JSONValue)]
    ) -> Bool {
        guard lhs.count == rhs.count else { return false }
        guard lhs.count > 8 else {
            return lhs.allSatisfy { member in rhs.contains { $0.name == member.name && $0.value == member.value } }
        }
        // By name, so that comparing large objects is not quadratic.
        let right = Dictionary(grouping: rhs, by: \.name)
        return lhs.allSatisfy { member in right[member.name]?.contains { $0.value == member.value } == true }
    }

    private static func hash(of member: (name: String, value: JSONValue)) -> Int {
        var hasher = Hasher()
        hasher.combine(member.name)
        hasher.combine(member.value)
        return hasher.finalize()
    }
}

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var values: [JSONValue] = []
            while !array.isAtEnd { values.append(try array.decode(JSONValue.self)) }
            self = .array(values)
            return
        }
        if let object = try? decoder.container(keyedBy: MemberName.self) {
            self = .object(try object.allKeys.map { ($0.stringValue, try object.decode(JSONValue.self, forKey: $0)) })
            return
        }
        let value = try decoder.singleValueContainer()
        if value.decodeNil() {
            self = .null
        } else if let bool = try? value.decode(Bool.self) {
            self = .bool(bool)
        } else if let integer = try? value.decode(Int64.self) {
            self = .integer(integer)
        } else if let number = try? value.decode(Double.self) {
            self = .number(number)
        } else {
            self = .string(try value.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .array(let values):
            var array = encoder.unkeyedContainer()
            for value in values { try array.encode(value) }
        case .object(let members):
            var object = encoder.container(keyedBy: MemberName.self)
            for member in members { try object.encode(member.value, forKey: MemberName(member.name)) }
        default:
            var value = encoder.singleValueContainer()
            switch self {
            case .null: try value.encodeNil()
            case .bool(let bool): try value.encode(bool)
            case .integer(let integer): try value.encode(integer)
            case .number(let number): try value.encode(number)
            case .string(let string): try value.encode(string)
            case .array, .object: break
            }
        }
    }

    /// Any member name.
    struct MemberName: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }

        init(_ name: String) {
            stringValue = name
        }

        init?(stringValue: String) {
            self.stringValue = stringValue
        }

        init?(intValue: Int) {
            stringValue = String(intValue)
        }
    }
}

extension JSONValue: CustomStringConvertible {
    /// The value as compact JSON, members in their order.
    public var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): String(value)
        case .integer(let value): String(value)
        case .number(let value): value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        case .string(let value): Self.quoted(value)
        case .array(let values): "[" + values.map(\.description).joined(separator: ",") + "]"
        case .object(let members):
            "{" + members.map { Self.quoted($0.name) + ":" + $0.value.description }.joined(separator: ",")
                + "}"
        }
    }

    /// A string as JSON writes it.
    static func quoted(_ string: String) -> String {
        "\"" + string.unicodeScalars.map(escaped).joined() + "\""
    }

    /// A string's character as JSON writes it (RFC 8259, section 7).
    static func escaped(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\"": #"\""#
        case "\\": #"\\"#
        case "\n": #"\n"#
        case "\r": #"\r"#
        case "\t": #"\t"#
        case _ where scalar.value < 0x20:
            #"\u00"# + String(scalar.value >> 4, radix: 16) + String(scalar.value & 0xF, radix: 16)
        default: String(scalar)
        }
    }
}
