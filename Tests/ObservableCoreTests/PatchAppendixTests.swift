import Foundation
import ObservableCore
import Testing

// RFC 6902's Appendix A, modelled as classes: each document's members as properties.

@KeyValueObservable
private final class FooBar: Codable {
    var foo = "bar"
    var baz: String?
    init() {}
}

@KeyValueObservable
private final class FooList: Codable {
    var foo: [String] = []
    init() {}
}

@KeyValueObservable
private final class Waldo: Codable {
    var bar = ""
    var waldo: String?
    init() {}
}

@KeyValueObservable
private final class Corge: Codable {
    var corge = ""
    var thud: String?
    init() {}
}

@KeyValueObservable
private final class MoveDocument: Codable {
    var foo = Waldo()
    var qux = Corge()
    init() {}
}

@KeyValueObservable
private final class Mixed: Codable {
    var baz = ""
    var foo: [JSONValue] = []
    init() {}
}

@KeyValueObservable
private final class Grandchild: Codable {
    var note: String?
    init() {}
}

@KeyValueObservable
private final class Child: Codable {
    var grandchild: Grandchild?
    init() {}
}

@KeyValueObservable
private final class Parent: Codable {
    var foo = "bar"
    var child: Child?
    init() {}
}

@Suite("RFC 6902's Appendix A applied to classes")
struct PatchAppendixTests {
    private static func decoded<Value: Decodable>(_ text: String, as _: Value.Type) throws -> Value {
        try JSONDecoder().decode(Value.self, from: Data(text.utf8))
    }

    private static func json(of value: some Encodable) throws -> JSONValue {
        try JSONValue(encoding: value)
    }

    /// Applies `patch` to the document `document` decodes to, and compares with `result`, or, when
    /// it is `nil`, expects the reason and the document unchanged.
    private static func check<Document: ObservedPropertyListing & Codable>(
        _: Document.Type, _ document: String, _ patch: String, result: String?,
        failing reason: ((JSONPatchError.Reason) -> Bool)? = nil
    ) throws {
        let object = try decoded(document, as: Document.self)
        let operations = try decoded(patch, as: [JSONPatchOperation].self)
        if let result {
            try object.apply(operations)
            #expect(try json(of: object) == decoded(result, as: JSONValue.self))
        } else {
            #expect {
                try object.apply(operations)
            } throws: { error in
                (error as? JSONPatchError).map { reason?($0.reason) ?? true } ?? false
            }
            #expect(try json(of: object) == decoded(document, as: JSONValue.self))
        }
    }

    @Test("A.1: adding a member the class does not have fails, naming it")
    func addingMember() throws {
        try Self.check(
            FooBar.self, #"{"foo":"bar"}"#, #"[{"op":"add","path":"/qux","value":"qux"}]"#, result: nil,
            failing: { $0 == .noProperty("qux", type: "FooBar") })
        // The member the class has, absent because it is nil, is added.
        try Self.check(
            FooBar.self, #"{"foo":"bar"}"#, #"[{"op":"add","path":"/baz","value":"qux"}]"#,
            result: #"{"baz":"qux","foo":"bar"}"#)
    }

    @Test("A.2, A.4, A.7: adding, removing and moving array elements")
    func arrays() throws {
        try Self.check(
            FooList.self, #"{"foo":["bar","baz"]}"#, #"[{"op":"add","path":"/foo/1","value":"qux"}]"#,
            result: #"{"foo":["bar","qux","baz"]}"#)
        try Self.check(
            FooList.self, #"{"foo":["bar","qux","baz"]}"#, #"[{"op":"remove","path":"/foo/1"}]"#,
            result: #"{"foo":["bar","baz"]}"#)
        try Self.check(
            FooList.self, #"{"foo":["all","grass","cows","eat"]}"#, #"[{"op":"move","from":"/foo/1","path":"/foo/3"}]"#,
            result: #"{"foo":["all","cows","eat","grass"]}"#)
    }

    @Test("A.3, A.5: removing an optional member, replacing a value")
    func members() throws {
        try Self.check(
            FooBar.self, #"{"baz":"qux","foo":"bar"}"#, #"[{"op":"remove","path":"/baz"}]"#, result: #"{"foo":"bar"}"#)
        try Self.check(
            FooBar.self, #"{"baz":"qux","foo":"bar"}"#, #"[{"op":"replace","path":"/baz","value":"boo"}]"#,
            result: #"{"baz":"boo","foo":"bar"}"#)
    }

    @Test("A.6: moving a value between objects")
    func moving() throws {
        try Self.check(
            MoveDocument.self, #"{"foo":{"bar":"baz","waldo":"fred"},"qux":{"corge":"grault"}}"#,
            #"[{"op":"move","from":"/foo/waldo","path":"/qux/thud"}]"#,
            result: #"{"foo":{"bar":"baz"},"qux":{"corge":"grault","thud":"fred"}}"#)
    }

    @Test("A.8, A.9: tests that hold change nothing; one that fails refuses the patch")
    func tests() throws {
        try Self.check(
            Mixed.self, #"{"baz":"qux","foo":["a",2,"c"]}"#,
            #"[{"op":"test","path":"/baz","value":"qux"},{"op":"test","path":"/foo/1","value":2}]"#,
            result: #"{"baz":"qux","foo":["a",2,"c"]}"#)
        try Self.check(
            Mixed.self, #"{"baz":"qux","foo":[]}"#, #"[{"op":"test","path":"/baz","value":"bar"}]"#, result: nil,
            failing: { $0 == .testFailed(found: .string("qux")) })
    }

    @Test("A.10: adding a nested object; A.11: unrecognized members are ignored")
    func nested() throws {
        try Self.check(
            Parent.self, #"{"foo":"bar"}"#, #"[{"op":"add","path":"/child","value":{"grandchild":{}}}]"#,
            result: #"{"foo":"bar","child":{"grandchild":{}}}"#)
        try Self.check(
            FooBar.self, #"{"foo":"bar"}"#, #"[{"op":"add","path":"/baz","value":"qux","xyz":123}]"#,
            result: #"{"foo":"bar","baz":"qux"}"#)
    }

    @Test("A.12: adding to a nonexistent target fails")
    func nonexistentTarget() throws {
        try Self.check(
            FooBar.self, #"{"foo":"bar"}"#, #"[{"op":"add","path":"/baz/bat","value":"qux"}]"#, result: nil,
            failing: { $0 == .notFound(try! JSONPointer("/baz")) })
    }

    /// A.14 and A.15 name members `/` and `~1`, which no Swift property can be called; A.16 adds an
    /// array as an element of an array of strings, which `[String]` cannot hold: a type mismatch.
    @Test("A.16: an array where a typed array holds strings is refused as a type mismatch")
    func arrayValue() throws {
        try Self.check(
            FooList.self, #"{"foo":["bar"]}"#, #"[{"op":"add","path":"/foo/-","value":["abc","def"]}]"#, result: nil,
            failing: {
                if case .typeMismatch(let type, _) = $0 { type == "String" } else { false }
            })
        // In an array of JSON values the RFC's result holds.
        try Self.check(
            Mixed.self, #"{"baz":"","foo":["bar"]}"#, #"[{"op":"add","path":"/foo/-","value":["abc","def"]}]"#,
            result: #"{"baz":"","foo":["bar",["abc","def"]]}"#)
    }
}
