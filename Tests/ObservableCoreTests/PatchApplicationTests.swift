import Foundation
import ObservableCore
import Testing

@Suite("Applying a JSON Patch to a document of objects")
struct PatchApplicationTests {
    private static func patch(_ text: String) throws -> [JSONPatchOperation] {
        try JSONDecoder().decode([JSONPatchOperation].self, from: Data(text.utf8))
    }

    private static func copy(of book: Manuscript) throws -> Manuscript {
        try JSONDecoder().decode(Manuscript.self, from: book.json)
    }

    @Test("random edits recorded on one copy and applied to a second give the same bytes after every patch")
    func randomRoundTrip() throws {
        var generator = SeededGenerator(seed: 0xA991_0059)
        for _ in 0..<30 {
            let original = Manuscript()
            for _ in 0..<Int.random(in: 0...6, using: &generator) { original.randomEdit(using: &generator) }
            let replica = try Self.copy(of: original)
            let recorder = try JSONPatchRecorder(recording: original, testingOldValues: Bool.random(using: &generator))
            for _ in 0..<25 {
                for _ in 0..<Int.random(in: 1...4, using: &generator) { original.randomEdit(using: &generator) }
                try replica.apply(recorder.takeOperations())
                #expect(String(decoding: replica.json, as: UTF8.self) == String(decoding: original.json, as: UTF8.self))
            }
        }
    }

    @Test("the edits go through the setters, in order: observers see each, an array changed at an index as a setting")
    func throughSetters() throws {
        let book = Manuscript()
        book.tags = ["a", "c"]
        var changes: [String] = []
        let token = book.observeProperties(deep: true) { _, change in changes.append("\(change.kind) \(change.path)") }
        try book.apply(
            Self.patch(
                #"""
                [{"op":"replace","path":"/title","value":"Emma"},{"op":"add","path":"/tags/1","value":"b"},
                 {"op":"add","path":"/parts/-","value":{"title":"One","notes":[]}},
                 {"op":"add","path":"/parts/0/notes/0","value":"n"},{"op":"remove","path":"/tags/0"}]
                """#))
        #expect(book.title == "Emma")
        #expect(book.tags == ["b", "c"])
        #expect(book.parts.map(\.title) == ["One"])
        #expect(book.parts.first?.notes == ["n"])
        #expect(
            changes == [
                // A key path writes a computed property through its getter and setter, not in place.
                "setting title", "setting tags", "setting parts", "setting parts[0].notes", "setting tags",
            ])
        token.cancel()
    }

    @Test("a failing operation anywhere leaves the document as it was, with no observer told")
    func wholeOrNothing() throws {
        let book = Manuscript()
        book.tags = ["a"]
        let before = book.json
        var told = 0
        let token = book.observeProperties(deep: true) { _, _ in told += 1 }
        let patches = [
            #"[{"op":"replace","path":"/title","value":"x"},{"op":"test","path":"/title","value":"y"}]"#,
            #"[{"op":"add","path":"/tags/0","value":"x"},{"op":"add","path":"/tags/5","value":"y"}]"#,
            #"[{"op":"add","path":"/parts/0","value":{"title":"x","notes":[]}},{"op":"replace","path":"/title","value":1}]"#,
            #"[{"op":"remove","path":"/tags/0"},{"op":"remove","path":"/title"}]"#,
        ]
        for text in patches {
            #expect(throws: JSONPatchError.self) { try book.apply(Self.patch(text)) }
            #expect(book.json == before)
        }
        #expect(told == 0)
        token.cancel()
    }

    @Test("a private property is refused exactly as a missing one is, and so is a weak one")
    func accessControl() throws {
        let book = Manuscript()
        book.parts = [Part()]
        func reason(_ text: String) -> JSONPatchError.Reason? {
            do {
                try book.apply(Self.patch(text))
                return nil
            } catch {
                return (error as? JSONPatchError)?.reason
            }
        }
        #expect(reason(#"[{"op":"replace","path":"/drafts","value":1}]"#) == .noProperty("drafts", type: "Manuscript"))
        #expect(reason(#"[{"op":"add","path":"/missing","value":1}]"#) == .noProperty("missing", type: "Manuscript"))
        #expect(
            reason(#"[{"op":"add","path":"/parts/0/manuscript","value":{}}]"#)
                == .noProperty("manuscript", type: "Part"))
    }

    @Test("errors name the operation and why: types, indexes, removing what is not optional, the root")
    func errors() throws {
        let book = Manuscript()
        let cases: [(String, JSONPatchError.Reason)] = [
            (#"[{"op":"add","path":"/tags/1","value":"x"}]"#, .invalidIndex("1")),
            (#"[{"op":"remove","path":"/title"}]"#, .notRemovable("title")),
            (#"[{"op":"replace","path":"","value":{}}]"#, .wholeDocument),
            (#"[{"op":"test","path":"/title","value":"x"}]"#, .testFailed(found: .string(""))),
            (#"[{"op":"add","path":"/title/x","value":"x"}]"#, .notFound(try JSONPointer("/title/x"))),
        ]
        for (text, reason) in cases {
            #expect {
                try book.apply(Self.patch(text))
            } throws: { error in
                (error as? JSONPatchError).map { $0.index == 0 && $0.reason == reason } ?? false
            }
        }
        #expect {
            try book.apply(Self.patch(#"[{"op":"replace","path":"/title","value":5}]"#))
        } throws: { error in
            guard case .typeMismatch(let type, _)? = (error as? JSONPatchError)?.reason else { return false }
            return type == "String"
        }
    }

    @Test(
        "hostile patches (random paths and values, deep paths, huge arrays) never crash and change nothing when refused"
    )
    func hostile() throws {
        var generator = SeededGenerator(seed: 0x0BAD_0059)
        let names = [
            "title", "subtitle", "parts", "tags", "ratings", "lead", "index", "appendix", "drafts", "notes",
            "pages", "-", "0", "1", "99", "", "~", "manuscript",
        ]
        let values: [JSONValue] = [
            .null, .bool(true), .integer(1), .integer(-1), .number(1.5), .string("x"), .array([]),
            .array([.string("a")]), .object([]), .object([("title", .string("t")), ("notes", .array([]))]),
            .array(Array(repeating: .integer(7), count: 100_000)),
        ]
        let book = Manuscript()
        book.parts = [Part("p")]
        book.tags = ["t"]
        for _ in 0..<500 {
            var operations: [JSONPatchOperation] = []
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let path = JSONPointer(
                    tokens: (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                        names.randomElement(using: &generator)!
                    })
                let value = values.randomElement(using: &generator)!
                let from = JSONPointer(tokens: [names.randomElement(using: &generator)!])
                let kinds: [JSONPatchOperation.Operation] = [
                    .add(value), .remove, .replace(value), .move(from: from), .copy(from: from), .test(value),
                ]
                operations.append(JSONPatchOperation(kinds.randomElement(using: &generator)!, at: path))
            }
            let before = book.json
            do {
                try book.apply(operations)
            } catch {
                #expect(book.json == before, "\(error)")
            }
        }
        let deep = JSONPointer(tokens: ["parts", "0"] + Array(repeating: "notes", count: 10_000))
        #expect(throws: JSONPatchError.self) { try book.apply([JSONPatchOperation(.add(.null), at: deep)]) }
    }
}
