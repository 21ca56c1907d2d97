/// One operation of a JSON Patch (RFC 6902), encoded as the RFC writes it:
/// `{"op": "replace", "path": "/chapters/0/title", "value": "Intro"}`.
///
/// An operation is made for what its kind needs: a value for `add`, `replace` and `test`, a source
/// for `move` and `copy`, so that every one encodes to a valid RFC 6902 operation.
public struct JSONPatchOperation: Hashable, Sendable, CustomStringConvertible {
    /// What an operation does, with what it needs.
    public enum Operation: Hashable, Sendable {
        /// Adds `value` at the path: a new array element (`-` appends), or a member set or replaced.
        case add(JSONValue)
        /// Removes the value at the path.
        case remove
        /// Replaces the value at the path, which must exist.
        case replace(JSONValue)
        /// Removes the value at `from` and adds it at the path.
        case move(from: JSONPointer)
        /// Adds a copy of the value at `from` at the path.
        case copy(from: JSONPointer)
        /// Succeeds only if the value at the path equals `value`.
        case test(JSONValue)

        /// The `op` member's value.
        public var name: String {
            switch self {
            case .add: "add"
            case .remove: "remove"
            case .replace: "replace"
            case .move: "move"
            case .copy: "copy"
            case .test: "test"
            }
        }
    }

    /// What the operation does.
    public var operation: Operation
    /// Where it does it.
    public var path: JSONPointer

    /// The operation `operation` at `path`.
    public init(_ operation: Operation, at path: JSONPointer) {
        self.operation = operation
        self.path = path
    }

    /// `{"op":"replace","path":"/title","value":"Intro"}`, members in the RFC's order.
    public var description: String {
        var text = #"{"op":"\#(operation.name)","path":\#(JSONValue.quoted(path.description))"#
        switch operation {
        case .add(let value), .replace(let value), .test(let value): text += #","value":\#(value)"#
        case .move(let from), .copy(let from): text += #","from":\#(JSONValue.quoted(from.description))"#
        case .remove: break
        }
        return text + "}"
    }
}

extension JSONPatchOperation: Codable {
    private enum Member: String, CodingKey {
        case op, path, value, from
    }

    /// Decodes an RFC 6902 operation; members other than those its `op` needs are ignored, as the RFC
    /// says (section 4).
    ///
    /// - Throws: `DecodingError` for an unknown `op`, a missing `path`, `value` or `from`, or a pointer
    ///   that does not parse.
    public init(from decoder: any Decoder) throws {
        let members = try decoder.container(keyedBy: Member.self)
        let name = try members.decode(String.self, forKey: .op)
        path = try members.decode(JSONPointer.self, forKey: .path)
        switch name {
        // A `value` of `null` is a value: present, not missing.
        case "add": operation = .add(try members.decode(JSONValue.self, forKey: .value))
        case "remove": operation = .remove
        case "replace": operation = .replace(try members.decode(JSONValue.self, forKey: .value))
        case "move": operation = .move(from: try members.decode(JSONPointer.self, forKey: .from))
        case "copy": operation = .copy(from: try members.decode(JSONPointer.self, forKey: .from))
        case "test": operation = .test(try members.decode(JSONValue.self, forKey: .value))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .op, in: members,
                debugDescription: "'\(name)' is not a JSON Patch operation (add, remove, replace, move, copy, test)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var members = encoder.container(keyedBy: Member.self)
        try members.encode(operation.name, forKey: .op)
        try members.encode(path, forKey: .path)
        switch operation {
        case .add(let value), .replace(let value), .test(let value): try members.encode(value, forKey: .value)
        case .move(let from), .copy(let from): try members.encode(from, forKey: .from)
        case .remove: break
        }
    }
}
