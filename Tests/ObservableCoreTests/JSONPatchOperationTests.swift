import Foundation
import ObservableCore
import Testing

@Suite("JSON Patch operations (RFC 6902) and the values they carry")
struct JSONPatchOperationTests {
    /// RFC 6902, section 3: a patch with one operation of each kind.
    static let rfcPatch = #"""
        [
          { "op": "test", "path": "/a/b/c", "value": "foo" },
          { "op": "remove", "path": "/a/b/c" },
          { "op": "add", "path": "/a/b/c", "value": [ "foo", "bar" ] },
          { "op": "replace", "path": "/a/b/c", "value": 42 },
          { "op": "move", "from": "/a/b/c", "path": "/a/b/d" },
          { "op": "copy", "from": "/a/b/d", "path": "/a/b/e" }
        ]
        """#

    @Test("RFC 6902's example patch decodes to its six operations and encodes back to the same JSON")
    func rfcExample() throws {
        let operations = try JSONDecoder().decode([JSONPatchOperation].self, from: Data(Self.rfcPatch.utf8))
        let c = try JSONPointer("/a/b/c")
        let d = try JSONPointer("/a/b/d")
        #expect(
            operations == [
                JSONPatchOperation(.test(.string("foo")), at: c),
                JSONPatchOperation(.remove, at: c),
                JSONPatchOperation(.add(.array([.string("foo"), .string("bar")])), at: c),
                JSONPatchOperation(.replace(.integer(42)), at: c),
                JSONPatchOperation(.move(from: c), at: d),
                JSONPatchOperation(.copy(from: d), at: try JSONPointer("/a/b/e")),
            ])
        let encoded = try JSONEncoder().encode(operations)
        #expect(try Self.sameJSON(encoded, Data(Self.rfcPatch.utf8)))
        #expect(
            operations.map(\.description) == [
                #"{"op":"test","path":"/a/b/c","value":"foo"}"#, #"{"op":"remove","path":"/a/b/c"}"#,
                #"{"op":"add","path":"/a/b/c","value":["foo","bar"]}"#, #"{"op":"replace","path":"/a/b/c","value":42}"#,
                #"{"op":"move","path":"/a/b/d","from":"/a/b/c"}"#, #"{"op":"copy","path":"/a/b/e","from":"/a/b/d"}"#,
            ])
        for description in operations.map(\.description) {
            #expect(
                try Self.sameJSON(
                    Data(description.utf8), JSONEncoder().encode(operations.first { $0.description == description })))
        }
    }

    @Test(
        "An operation without what its op needs, or with an unknown op or a bad pointer, fails to decode, saying which")
    func malformed() {
        let malformed = [
            #"{"op": "add", "path": "/a"}"#, #"{"op": "replace", "path": "/a"}"#, #"{"op": "test", "path": "/a"}"#,
            #"{"op": "move", "path": "/a"}"#, #"{"op": "copy", "path": "/a"}"#, #"{"op": "remove"}"#,
            #"{"path": "/a"}"#, #"{"op": "merge", "path": "/a", "value": 1}"#, #"{"op": "remove", "path": "a"}"#,
            #"{"op": "move", "path": "/a", "from": "/~2"}"#, #"{"op": 1, "path": "/a"}"#, #"[]"#, #"null"#,
        ]
        for text in malformed {
            #expect(throws: DecodingError.self, "\(text)") {
                try JSONDecoder().decode(JSONPatchOperation.self, from: Data(text.utf8))
            }
        }
        do {
            _ = try JSONDecoder().decode(JSONPatchOperation.self, from: Data(#"{"op": "merge", "path": ""}"#.utf8))
            Issue.record("decoded an unknown op")
        } catch {
            #expect("\(error)".contains("'merge' is not a JSON Patch operation"))
        }
    }

    @Test("A null value is a value; members an op does not use are ignored (RFC 6902, section 4)")
    func nullAndExtraMembers() throws {
        let add = try JSONDecoder().decode(
            JSONPatchOperation.self, from: Data(#"{"op": "add", "path": "/a", "value": null, "from": "/x"}"#.utf8))
        #expect(add == JSONPatchOperation(.add(.null), at: try JSONPointer("/a")))
        let remove = try JSONDecoder().decode(
            JSONPatchOperation.self, from: Data(#"{"op": "remove", "path": "/a", "value": 1, "extra": [1]}"#.utf8))
        #expect(remove == JSONPatchOperation(.remove, at: try JSONPointer("/a")))
        #expect(String(decoding: try JSONEncoder().encode(remove), as: UTF8.self).contains("value") == false)
    }

    @Test("Values: integers stay integers, other numbers are numbers; objects compare and hash without order")
    func values() throws {
        let text =
            #"{"i": 9007199254740993, "n": 1.5, "s": "a\"\\\n\u0001", "b": false, "z": null, "a": [1, {"k": []}]}"#
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        #expect(value[member: "i"] == .integer(9_007_199_254_740_993))
        #expect(value[member: "n"] == .number(1.5))
        #expect(value[member: "s"] == .string("a\"\\\n\u{1}"))
        #expect(value[member: "b"] == .bool(false))
        #expect(value[member: "z"] == .null)
        #expect(value[member: "a"] == .array([.integer(1), .object([("k", .array([]))])]))
        #expect(value[member: "missing"] == nil)
        #expect(JSONValue.integer(2) == .number(2))
        #expect(JSONValue.integer(2) != .number(2.5))
        #expect(JSONValue.bool(true) != .integer(1))
        let one: JSONValue = .object([("x", .integer(1)), ("y", .string("y"))])
        let other: JSONValue = .object([("y", .string("y")), ("x", .number(1))])
        #expect(one == other)
        #expect(Set([one, other, .integer(2), .number(2)]).count == 2)
        #expect(one != .object([("x", .integer(1))]))
        #expect(one != .object([("x", .integer(1)), ("z", .string("y"))]))
        let encoded = try JSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(JSONValue.self, from: encoded) == value)
        #expect(try Self.sameJSON(encoded, Data(text.utf8)))
        #expect(try Self.sameJSON(Data(value.description.utf8), Data(text.utf8)))
        #expect(value[member: "s"]?.description == #""a\"\\\n\u0001""#)
    }

    /// Whether two texts are the same JSON, as `JSONSerialization` reads them (members in any order).
    static func sameJSON(_ lhs: Data, _ rhs: Data) throws -> Bool {
        let options: JSONSerialization.WritingOptions = [.sortedKeys, .fragmentsAllowed]
        let left = try JSONSerialization.data(
            withJSONObject: JSONSerialization.jsonObject(with: lhs, options: .fragmentsAllowed), options: options)
        let right = try JSONSerialization.data(
            withJSONObject: JSONSerialization.jsonObject(with: rhs, options: .fragmentsAllowed), options: options)
        return left == right
    }
}
