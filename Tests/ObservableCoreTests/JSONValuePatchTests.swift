import Foundation
import ObservableCore
import Testing

/// RFC 6902's Appendix A, every example, applied to JSON values: what a server holding the document
/// as JSON does with a recorded patch.
@Suite("JSON Patch applied to a JSON value (RFC 6902, Appendix A)")
struct JSONValuePatchTests {
    struct Example: CustomTestStringConvertible, Sendable {
        let name: String
        let document: String
        let patch: String
        /// The document after the patch; `nil` when the patch must fail.
        let result: String?
        var testDescription: String { name }
    }

    static let examples: [Example] = [
        Example(
            name: "A.1 adding an object member", document: #"{"foo":"bar"}"#,
            patch: #"[{"op":"add","path":"/baz","value":"qux"}]"#, result: #"{"baz":"qux","foo":"bar"}"#),
        Example(
            name: "A.2 adding an array element", document: #"{"foo":["bar","baz"]}"#,
            patch: #"[{"op":"add","path":"/foo/1","value":"qux"}]"#, result: #"{"foo":["bar","qux","baz"]}"#),
        Example(
            name: "A.3 removing an object member", document: #"{"baz":"qux","foo":"bar"}"#,
            patch: #"[{"op":"remove","path":"/baz"}]"#, result: #"{"foo":"bar"}"#),
        Example(
            name: "A.4 removing an array element", document: #"{"foo":["bar","qux","baz"]}"#,
            patch: #"[{"op":"remove","path":"/foo/1"}]"#, result: #"{"foo":["bar","baz"]}"#),
        Example(
            name: "A.5 replacing a value", document: #"{"baz":"qux","foo":"bar"}"#,
            patch: #"[{"op":"replace","path":"/baz","value":"boo"}]"#, result: #"{"baz":"boo","foo":"bar"}"#),
        Example(
            name: "A.6 moving a value", document: #"{"foo":{"bar":"baz","waldo":"fred"},"qux":{"corge":"grault"}}"#,
            patch: #"[{"op":"move","from":"/foo/waldo","path":"/qux/thud"}]"#,
            result: #"{"foo":{"bar":"baz"},"qux":{"corge":"grault","thud":"fred"}}"#),
        Example(
            name: "A.7 moving an array element", document: #"{"foo":["all","grass","cows","eat"]}"#,
            patch: #"[{"op":"move","from":"/foo/1","path":"/foo/3"}]"#,
            result: #"{"foo":["all","cows","eat","grass"]}"#),
        Example(
            name: "A.8 testing a value: success", document: #"{"baz":"qux","foo":["a",2,"c"]}"#,
            patch: #"[{"op":"test","path":"/baz","value":"qux"},{"op":"test","path":"/foo/1","value":2}]"#,
            result: #"{"baz":"qux","foo":["a",2,"c"]}"#),
        Example(
            name: "A.9 testing a value: error", document: #"{"baz":"qux"}"#,
            patch: #"[{"op":"test","path":"/baz","value":"bar"}]"#, result: nil),
        Example(
            name: "A.10 adding a nested member object", document: #"{"foo":"bar"}"#,
            patch: #"[{"op":"add","path":"/child","value":{"grandchild":{}}}]"#,
            result: #"{"foo":"bar","child":{"grandchild":{}}}"#),
        Example(
            name: "A.11 ignoring unrecognized elements", document: #"{"foo":"bar"}"#,
            patch: #"[{"op":"add","path":"/baz","value":"qux","xyz":123}]"#, result: #"{"foo":"bar","baz":"qux"}"#),
        Example(
            name: "A.12 adding to a nonexistent target", document: #"{"foo":"bar"}"#,
            patch: #"[{"op":"add","path":"/baz/bat","value":"qux"}]"#, result: nil),
        Example(
            name: "A.14 ~ escape ordering", document: #"{"/":9,"~1":10}"#,
            patch: #"[{"op":"test","path":"/~01","value":10}]"#, result: #"{"/":9,"~1":10}"#),
        Example(
            name: "A.15 comparing strings and numbers", document: #"{"/":9,"~1":10}"#,
            patch: #"[{"op":"test","path":"/~01","value":"10"}]"#, result: nil),
        Example(
            name: "A.16 adding an array value", document: #"{"foo":["bar"]}"#,
            patch: #"[{"op":"add","path":"/foo/-","value":["abc","def"]}]"#,
            result: #"{"foo":["bar",["abc","def"]]}"#),
    ]

    static func json<Value: Decodable>(_ text: String, as _: Value.Type = JSONValue.self) throws -> Value {
        try JSONDecoder().decode(Value.self, from: Data(text.utf8))
    }

    @Test("each example applies as the RFC says, or fails and leaves the document as it was", arguments: examples)
    func appendix(_ example: Example) throws {
        let document = try Self.json(example.document)
        let patch = try Self.json(example.patch, as: [JSONPatchOperation].self)
        if let result = example.result {
            #expect(try document.applying(patch) == Self.json(result))
        } else {
            #expect(throws: JSONPatchError.self) { try document.applying(patch) }
        }
    }

    /// RFC 6902 calls this patch an error; JSON (RFC 8259) leaves duplicate names to the parser, and
    /// `JSONDecoder` keeps the first without saying so. Codable sees one member, so this is the
    /// decoder's to refuse, not the patch's: pinned here so that a change of decoder is noticed.
    @Test("random operations on an object of many members do what they do to a dictionary")
    func manyMembers() throws {
        var generator = SeededGenerator(seed: 0x0B1E_C700)
        var oracle = Dictionary(uniqueKeysWithValues: (0..<40).map { ("m\($0)", JSONValue.integer(Int64($0))) })
        var document = JSONValue.object(oracle.map { ($0.key, $0.value) }.shuffled(using: &generator))
        var refused = 0
        for step in 0..<2_000 {
            let name = "m\(Int.random(in: 0..<60, using: &generator))"
            let other = "m\(Int.random(in: 0..<60, using: &generator))"
            let value = JSONValue.integer(Int64(step))
            let pointer = JSONPointer(tokens: [name])
            let operation: JSONPatchOperation
            var expected = oracle
            switch Int.random(in: 0..<6, using: &generator) {
            case 0:
                operation = JSONPatchOperation(.add(value), at: pointer)
                expected[name] = value
            case 1:
                operation = JSONPatchOperation(.replace(value), at: pointer)
                if expected[name] != nil { expected[name] = value }
            case 2:
                operation = JSONPatchOperation(.remove, at: pointer)
                expected[name] = nil
            case 3:
                operation = JSONPatchOperation(.move(from: JSONPointer(tokens: [other])), at: pointer)
                if let moved = expected.removeValue(forKey: other) { expected[name] = moved }
            case 4:
                operation = JSONPatchOperation(.copy(from: JSONPointer(tokens: [other])), at: pointer)
                if let copied = expected[other] { expected[name] = copied }
            default:
                let whole = JSONValue.object(oracle.map { ($0.key, $0.value) }.shuffled(using: &generator))
                operation = JSONPatchOperation(
                    .test(Bool.random(using: &generator) ? whole : value), at: JSONPointer(tokens: []))
            }
            let applies: Bool
            switch operation.operation {
            case .replace, .remove: applies = oracle[name] != nil
            case .move(let from), .copy(let from): applies = oracle[from.tokens[0]] != nil
            case .test(let tested): applies = tested == document
            default: applies = true
            }
            do {
                document = try document.applying([operation])
                #expect(applies, "step \(step): \(operation) applied")
                oracle = expected
            } catch {
                #expect(!applies, "step \(step): \(operation) refused: \(error)")
                refused += 1
            }
            guard case .object(let members) = document else {
                Issue.record("step \(step): not an object: \(document)")
                return
            }
            let names = Set(members.map(\.name))
            #expect(names.count == members.count, "step \(step): a name twice")
            let byName = Dictionary(members.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
            #expect(byName == oracle, "step \(step)")
            if byName != oracle { return }
        }
        #expect(refused > 200 && refused < 1_500)
    }

    @Test("large objects are equal in any order of their members, and unequal by one value")
    func largeObjectEquality() {
        let members = (0..<100).map { ("m\($0)", JSONValue.integer(Int64($0))) }
        #expect(JSONValue.object(members) == .object(members.reversed()))
        var changed = members
        changed[57].1 = .integer(-1)
        #expect(JSONValue.object(members) != .object(changed.reversed()))
        var renamed = members
        renamed[3].0 = "other"
        #expect(JSONValue.object(members) != .object(renamed))
    }

    @Test("A.13: of two ops in one operation, JSONDecoder keeps the first")
    func duplicateMember() throws {
        let patch = try Self.json(
            #"[{"op":"add","path":"/baz","value":"qux","op":"remove"}]"#, as: [JSONPatchOperation].self)
        #expect(patch == [JSONPatchOperation(.add(.string("qux")), at: try JSONPointer("/baz"))])
    }

    @Test("an error names the operation, its position and why")
    func errors() throws {
        let document = try Self.json(#"{"list":[1,2],"name":"a"}"#)
        let cases: [(String, Int, JSONPatchError.Reason)] = [
            (
                #"[{"op":"replace","path":"/name","value":"b"},{"op":"remove","path":"/missing"}]"#, 1,
                .notFound(try JSONPointer("/missing"))
            ),
            (#"[{"op":"add","path":"/list/3","value":0}]"#, 0, .invalidIndex("3")),
            (#"[{"op":"remove","path":"/list/01"}]"#, 0, .invalidIndex("01")),
            (#"[{"op":"add","path":"/name/x","value":0}]"#, 0, .notFound(try JSONPointer("/name/x"))),
            (#"[{"op":"test","path":"/name","value":"b"}]"#, 0, .testFailed(found: .string("a"))),
            (#"[{"op":"test","path":"/none","value":null}]"#, 0, .testFailed(found: nil)),
            (#"[{"op":"move","from":"/list","path":"/list/0"}]"#, 0, .moveIntoItself),
            (#"[{"op":"remove","path":""}]"#, 0, .wholeDocument),
            (#"[{"op":"copy","from":"/nothing","path":"/b"}]"#, 0, .notFound(try JSONPointer("/nothing"))),
            (#"[{"op":"add","path":"/a/b/c","value":1}]"#, 0, .notFound(try JSONPointer("/a"))),
        ]
        for (text, index, reason) in cases {
            let patch = try Self.json(text, as: [JSONPatchOperation].self)
            #expect {
                try document.applying(patch)
            } throws: { error in
                guard let error = error as? JSONPatchError else { return false }
                return error.index == index && error.operation == patch[index] && error.reason == reason
            }
        }
    }

    @Test("the whole document is replaced, added to and tested at the empty pointer")
    func wholeDocument() throws {
        let document = try Self.json(#"{"a":1}"#)
        let patch = try Self.json(
            #"[{"op":"test","path":"","value":{"a":1}},{"op":"replace","path":"","value":[1]},{"op":"add","path":"/0","value":0}]"#,
            as: [JSONPatchOperation].self)
        #expect(try document.applying(patch) == .array([.integer(0), .integer(1)]))
        #expect(try document.value(at: JSONPointer("")) == document)
        #expect(try document.value(at: JSONPointer("/a")) == .integer(1))
    }
}
