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
        let node = JSONNode()
        try node.store(value, codingPath: [])
        return node.json
    }
}
