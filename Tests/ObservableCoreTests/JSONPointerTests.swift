import Foundation
import ObservableCore
import Testing

@Suite("JSON Pointer (RFC 6901)")
struct JSONPointerTests {
    /// RFC 6901, section 5: the document, and each pointer with the value it identifies.
    static let document = #"""
        {"foo": ["bar", "baz"], "": 0, "a/b": 1, "c%d": 2, "e^f": 3, "g|h": 4, "i\\j": 5, "k\"l": 6, " ": 7, "m~n": 8}
        """#
    static let examples: [(pointer: String, tokens: [String], value: String)] = [
        ("", [], "document"),
        ("/foo", ["foo"], #"["bar","baz"]"#),
        ("/foo/0", ["foo", "0"], #""bar""#),
        ("/", [""], "0"),
        ("/a~1b", ["a/b"], "1"),
        ("/c%d", ["c%d"], "2"),
        ("/e^f", ["e^f"], "3"),
        ("/g|h", ["g|h"], "4"),
        (#"/i\j"#, [#"i\j"#], "5"),
        (#"/k"l"#, [#"k"l"#], "6"),
        ("/ ", [" "], "7"),
        ("/m~0n", ["m~n"], "8"),
    ]

    @Test(
        "RFC 6901's examples: each pointer parses to its tokens, reaches the RFC's value and is written back as it was")
    func rfcExamples() throws {
        let document = try JSONSerialization.jsonObject(with: Data(Self.document.utf8), options: .fragmentsAllowed)
        for example in Self.examples {
            let pointer = try JSONPointer(example.pointer)
            #expect(pointer.tokens == example.tokens, "\(example.pointer)")
            #expect(pointer.description == example.pointer)
            let reached = try #require(Self.resolve(pointer, in: document), "\(example.pointer)")
            if example.value == "document" {
                #expect(reached as? NSDictionary == document as? NSDictionary)
            } else {
                let expected = try JSONSerialization.jsonObject(
                    with: Data(example.value.utf8), options: .fragmentsAllowed)
                #expect(Self.json(reached) == Self.json(expected), "\(example.pointer)")
            }
        }
    }

    @Test("~01 is ~1, not /: escapes are read left to right; tokens with ~ and / are written escaped")
    func escapesInOrder() throws {
        #expect(try JSONPointer("/~01").tokens == ["~1"])
        #expect(try JSONPointer("/~10").tokens == ["/0"])
        #expect(JSONPointer(tokens: ["~1", "a/b~", ""]).description == "/~01/a~1b~0/")
        for tokens in [["~"], ["/"], ["~/~"], ["", ""], ["chapters", "0", "notes"]] {
            #expect(try JSONPointer(JSONPointer(tokens: tokens).description).tokens == tokens)
        }
    }

    @Test("A string that is not a pointer throws what is wrong with it, naming it")
    func syntaxErrors() {
        let cases: [(String, JSONPointer.SyntaxError.Reason)] = [
            ("foo", .missingLeadingSlash), (" /foo", .missingLeadingSlash), ("/a~", .invalidEscape),
            ("/a~2", .invalidEscape), ("/~/x", .invalidEscape), ("/ok/~x", .invalidEscape),
        ]
        for (string, reason) in cases {
            let error = #expect(throws: JSONPointer.SyntaxError.self) { try JSONPointer(string) }
            #expect(error?.pointer == string)
            #expect(error?.reason == reason, "\(string)")
        }
        let error = #expect(throws: JSONPointer.SyntaxError.self) { try JSONPointer("/a~2") }
        #expect(error?.description == "'/a~2' is not a JSON Pointer: '~' is followed by neither '0' nor '1'")
        let missing = #expect(throws: JSONPointer.SyntaxError.self) { try JSONPointer("a") }
        #expect(missing?.description == "'a' is not a JSON Pointer: it does not start with '/'")
    }

    @Test("An array index is 0 or digits without a leading 0; '-' and anything else is not one")
    func arrayIndexes() {
        #expect(JSONPointer.arrayIndex("0") == 0)
        #expect(JSONPointer.arrayIndex("7") == 7)
        #expect(JSONPointer.arrayIndex("10") == 10)
        #expect(JSONPointer.arrayIndex(String(Int.max)) == Int.max)
        let overflowing = ["99999999999999999999", String(Int.max) + "0", "9223372036854775808"]
        for token in ["", "-", "01", "00", "1a", "+1", "-1", " 1", "1.0", "٣"] + overflowing {
            #expect(JSONPointer.arrayIndex(token) == nil, "\(token)")
        }
    }

    @Test("Building: appending a token or an index, and the parent")
    func building() {
        let pointer = JSONPointer(tokens: []).appending("chapters").appending(index: 0).appending("a/b")
        #expect(pointer.description == "/chapters/0/a~1b")
        #expect(pointer.parent?.description == "/chapters/0")
        #expect(pointer.parent?.parent?.parent == JSONPointer(tokens: []))
        #expect(JSONPointer(tokens: []).parent == nil)
    }

    @Test("Codable as its string form; a string that is not a pointer fails to decode")
    func codable() throws {
        let pointer = JSONPointer(tokens: ["a/b", "m~n", "0"])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        let data = try encoder.encode([pointer])
        #expect(String(decoding: data, as: UTF8.self) == #"["/a~1b/m~0n/0"]"#)
        #expect(try JSONDecoder().decode([JSONPointer].self, from: data) == [pointer])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([JSONPointer].self, from: Data(#"["a"]"#.utf8)) }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([JSONPointer].self, from: Data(#"["/~"]"#.utf8))
        }
    }

    /// The RFC's evaluation (section 4), on what `JSONSerialization` reads: independent of the type.
    static func resolve(_ pointer: JSONPointer, in document: Any) -> Any? {
        var value: Any = document
        for token in pointer.tokens {
            if let object = value as? [String: Any], let member = object[token] {
                value = member
            } else if let array = value as? [Any], let index = JSONPointer.arrayIndex(token), index < array.count {
                value = array[index]
            } else {
                return nil
            }
        }
        return value
    }

    static func json(_ value: Any) -> String? {
        (try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys]))
            .map { String(decoding: $0, as: UTF8.self) }
    }
}
