import Foundation
import ObservableCore
import Synchronization
import Testing

/// A document of the scalars a patch decodes without `JSONDecoder`.
@KeyValueObservable
private final class Scalars: Codable {
    var count = 0
    var ratio = 0.0
    var flag = false
    var name = ""
    init() {}
}

/// How often the chapters of one document were encoded.
private final class EncodingCount: Sendable {
    private let value = Mutex(0)
    var count: Int { value.withLock { $0 } }
    func add() { value.withLock { $0 += 1 } }
    func reset() { value.withLock { $0 = 0 } }
}

/// A chapter that counts its encodings, to show what checking a patch encodes.
@KeyValueObservable
private final class CountedChapter: Codable {
    var title: String
    var sections: [CountedChapter] = []
    @Unobserved let encodings: EncodingCount

    init(_ title: String, encodings: EncodingCount) {
        self.title = title
        self.encodings = encodings
    }

    required init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        title = try container.decode(String.self, forKey: .title)
        sections = try container.decode([CountedChapter].self, forKey: .sections)
        encodings = EncodingCount()
    }

    func encode(to encoder: any Encoder) throws {
        encodings.add()
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(title, forKey: .title)
        try container.encode(sections, forKey: .sections)
    }

    private enum Keys: String, CodingKey {
        case title, sections
    }
}

/// Numbers that count their encodings, written as a JSON array: a value a patch's path may pass by.
private struct CountedSamples: Codable {
    var values: [Double]
    let encodings: EncodingCount

    init(_ values: [Double], encodings: EncodingCount) {
        self.values = values
        self.encodings = encodings
    }

    init(from decoder: any Decoder) throws {
        values = try decoder.singleValueContainer().decode([Double].self)
        encodings = EncodingCount()
    }

    func encode(to encoder: any Encoder) throws {
        encodings.add()
        var container = encoder.singleValueContainer()
        try container.encode(values)
    }
}

/// A value whose encoding always fails.
private struct Unencodable: Codable {
    init() {}
    init(from decoder: any Decoder) throws {}
    func encode(to encoder: any Encoder) throws {
        throw EncodingError.invalidValue(
            0, EncodingError.Context(codingPath: encoder.codingPath, debugDescription: "no"))
    }
}

/// An instance that encodes itself as its own single value, which no encoder can finish.
private final class EncodesItself: Codable {
    init() {}
    init(from decoder: any Decoder) throws {}
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(self)
    }
}

/// A document whose patched property sits beside values a patch should not encode.
@KeyValueObservable
private final class Series: Codable {
    var title = ""
    var samples: CountedSamples
    var broken = Unencodable()
    var looping: [EncodesItself] = [EncodesItself()]

    init(samples: CountedSamples) {
        self.samples = samples
    }
}

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

    @Test("a scalar is set to what JSONDecoder decodes from the value, and refused where it refuses it")
    func scalarsAsJSONDecoderDecodes() throws {
        let values: [JSONValue] = [
            .integer(3), .integer(-1), .integer(.max), .number(2.5), .number(3), .number(-0.0), .number(.infinity),
            .bool(true), .bool(false), .string("s"), .string(""), .null, .array([]), .object([]),
        ]
        func check<Value: Codable & Equatable>(
            _ name: String, _ keyPath: ReferenceWritableKeyPath<Scalars, Value>, _ value: JSONValue
        ) {
            let document = Scalars()
            let before = document[keyPath: keyPath]
            let expected = (try? JSONEncoder().encode(value)).flatMap {
                try? JSONDecoder().decode(Value.self, from: $0)
            }
            let patch = [JSONPatchOperation(.replace(value), at: JSONPointer(tokens: [name]))]
            do {
                try document.apply(patch)
                #expect(expected != nil && document[keyPath: keyPath] == expected, "\(name) \(value)")
            } catch {
                #expect(expected == nil && document[keyPath: keyPath] == before, "\(name) \(value)")
            }
        }
        for value in values {
            check("count", \.count, value)
            check("ratio", \.ratio, value)
            check("flag", \.flag, value)
            check("name", \.name, value)
        }
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

    @Test("checking a patch encodes the objects its paths go into, one level each, and a value it reads whole")
    func checkEncodesWhatPathsReach() throws {
        let encodings = EncodingCount()
        let book = CountedChapter("book", encodings: encodings)
        book.sections = (0..<10).map { chapter in
            let section = CountedChapter("\(chapter)", encodings: encodings)
            section.sections = (0..<10).map { CountedChapter("\(chapter).\($0)", encodings: encodings) }
            return section
        }
        // The first apply also learns the class's key paths, by encoding it once.
        try book.apply([JSONPatchOperation(.replace(.string("first")), at: JSONPointer("/title"))])
        encodings.reset()

        try book.apply([JSONPatchOperation(.replace(.string("x")), at: JSONPointer("/sections/3/sections/4/title"))])
        #expect(book.sections[3].sections[4].title == "x")
        #expect(encodings.count == 3)  // the book, section 3, and its section 4

        let expected = try JSONValue(encoding: book.sections[5])
        #expect(encodings.count == 3 + 11)
        encodings.reset()
        try book.apply([JSONPatchOperation(.test(expected), at: JSONPointer("/sections/5"))])
        #expect(encodings.count == 1 + 11)  // the book one level, then section 5 and its ten whole

        encodings.reset()
        let refused = try [JSONPatchOperation(.replace(.integer(1)), at: JSONPointer("/sections/9/sections/10/title"))]
        #expect(throws: JSONPatchError.self) { try book.apply(refused) }
        #expect(encodings.count == 2)

        // A document with a cycle: encoding it whole would never end; a path that does not go round
        // the cycle is checked and applied.
        book.sections[0].sections.append(book)
        defer { book.sections[0].sections.removeAll() }
        try book.apply([JSONPatchOperation(.replace(.string("cyclic")), at: JSONPointer("/sections/1/title"))])
        #expect(book.sections[1].title == "cyclic")
        // A value that holds the cycle is refused where it is read whole, not encoded for ever.
        let readsCycle = try [JSONPatchOperation(.test(.null), at: JSONPointer("/sections/0"))]
        #expect {
            try book.apply(readsCycle)
        } throws: { error in
            (error as? JSONPatchError)?.reason == .notCodable(type: "CountedChapter")
        }
        #expect(throws: EncodingError.self) { try JSONValue(encoding: book) }
        #expect(book.sections[1].title == "cyclic")
    }

    @Test("checking a patch encodes a value beside its paths only when one goes into it or reads it")
    func checkPassesValuesBy() throws {
        let encodings = EncodingCount()
        let series = Series(samples: CountedSamples((0..<1_000).map(Double.init), encodings: encodings))
        try series.apply([JSONPatchOperation(.replace(.string("first")), at: JSONPointer("/title"))])
        encodings.reset()

        // Beside the path: neither the numbers nor the value that cannot be encoded are.
        try series.apply([JSONPatchOperation(.replace(.string("second")), at: JSONPointer("/title"))])
        #expect(series.title == "second")
        #expect(encodings.count == 0)

        // Read whole by a test: encoded once.
        let expected = JSONValue.array((0..<1_000).map { .integer(Int64($0)) })
        try series.apply([
            JSONPatchOperation(.test(expected), at: JSONPointer("/samples")),
            JSONPatchOperation(.replace(.string("third")), at: JSONPointer("/title")),
        ])
        #expect(series.title == "third")
        #expect(encodings.count == 1)

        // Replaced: the new value decoded, the old one never encoded.
        encodings.reset()
        try series.apply([JSONPatchOperation(.replace(.array([.integer(7)])), at: JSONPointer("/samples"))])
        #expect(series.samples.values == [7])
        #expect(encodings.count == 0)

        // Gone into or read whole, what cannot be encoded refuses the patch and changes nothing.
        let refusals: [(JSONPatchOperation, String)] = try [
            (JSONPatchOperation(.test(.null), at: JSONPointer("/broken")), "Unencodable"),
            (JSONPatchOperation(.replace(.null), at: JSONPointer("/broken/x")), "Unencodable"),
            (JSONPatchOperation(.replace(.null), at: JSONPointer("/looping/0/x")), "EncodesItself"),
            (JSONPatchOperation(.test(.null), at: JSONPointer("/looping")), "Array<EncodesItself>"),
        ]
        for (operation, type) in refusals {
            #expect {
                try series.apply([
                    JSONPatchOperation(.replace(.string("refused")), at: JSONPointer("/title")), operation,
                ])
            } throws: { error in
                (error as? JSONPatchError)?.reason == .notCodable(type: type)
            }
            #expect(series.title == "third")
        }
    }

    @Test("an undo history and a change tracker see a patch: undone whole as a group, reverted, redone")
    func editors() throws {
        let original = Manuscript()
        original.parts = [Part("one")]
        let replica = try Self.copy(of: original)
        let start = replica.json
        let recorder = try JSONPatchRecorder(recording: original)
        original.title = "Emma"
        original.parts[0].notes.append("n")
        original.tags.append("t")
        let patch = try recorder.takeOperations()

        let history = UndoHistory(recording: replica, deep: true)
        try history.group(named: "Sync") { try replica.apply(patch) }
        let patched = replica.json
        #expect(patched == original.json)
        #expect(history.undoActionName == "Sync")
        history.undo()
        #expect(replica.json == start)
        history.redo()
        #expect(replica.json == patched)

        let tracker = ChangeTracker(tracking: replica)
        try replica.apply([JSONPatchOperation(.replace(.string("Persuasion")), at: JSONPointer("/title"))])
        #expect(tracker.changedPropertyNames == ["title"])
        tracker.revert()
        #expect(replica.title == "Emma")
    }

    @Test("random JSON as a patch: refused by the decoder, or applied whole, or refused leaving all as it was")
    func randomJSON() throws {
        var generator = SeededGenerator(seed: 0x7E57_0059)
        let scalars: [JSONValue] = [
            .null, .bool(false), .integer(0), .integer(-7), .number(0.5), .string(""), .string("x"), .string("/title"),
            .string("/tags/0"), .string("/tags/-"), .string("/parts/0/title"), .string("title"), .string("~2"),
        ]
        func randomValue(depth: Int, using generator: inout SeededGenerator) -> JSONValue {
            switch Int.random(in: 0..<(depth > 2 ? 1 : 3), using: &generator) {
            case 0: return scalars.randomElement(using: &generator)!
            case 1:
                return .array(
                    (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                        randomValue(depth: depth + 1, using: &generator)
                    })
            default:
                return .object(
                    (0..<Int.random(in: 0...3, using: &generator)).map { index in
                        (["title", "notes", "x"][index], randomValue(depth: depth + 1, using: &generator))
                    })
            }
        }
        let ops = ["add", "remove", "replace", "move", "copy", "test", "bad"]
        let pointers = [
            "", "/title", "/subtitle", "/tags/0", "/tags/-", "/tags/1", "/parts/0", "/parts/0/notes/-", "/x", "y",
        ]
        let book = Manuscript()
        book.tags = ["a"]
        book.parts = [Part("p")]
        var decoded = 0
        var applied = 0
        for _ in 0..<2_000 {
            let operations: [JSONValue] = (0..<Int.random(in: 1...3, using: &generator)).map { _ in
                var members: [(name: String, value: JSONValue)] = []
                if Int.random(in: 0..<10, using: &generator) > 0 {
                    members.append(("op", .string(ops.randomElement(using: &generator)!)))
                }
                for name in ["path", "from"] where Int.random(in: 0..<10, using: &generator) > 1 {
                    let pointer = pointers.randomElement(using: &generator)!
                    members.append(
                        (
                            name,
                            Bool.random(using: &generator) ? .string(pointer) : randomValue(depth: 0, using: &generator)
                        ))
                }
                if Int.random(in: 0..<10, using: &generator) > 1 {
                    members.append(("value", randomValue(depth: 0, using: &generator)))
                }
                return .object(members)
            }
            let text = JSONValue.array(operations).description
            guard let patch = try? Self.patch(text) else { continue }
            decoded += 1
            let before = book.json
            do {
                try book.apply(patch)
                applied += 1
            } catch {
                #expect(book.json == before, "\(text): \(error)")
            }
        }
        // The seed gives 169 patches of 2,000; some apply and some are refused.
        #expect(decoded > 100)
        #expect(applied > 0 && applied < decoded)
    }
}

@KeyValueObservable
@MainActor
private final class Screen: @MainActor Codable {
    var title = ""
    var items: [String] = []
    init() {}
}

@Suite("A patch on the main actor")
@MainActor
struct MainActorPatchTests {
    @Test("a @MainActor document records and applies on the main actor")
    func mainActor() throws {
        let original = Screen()
        let replica = Screen()
        let recorder = try JSONPatchRecorder(recording: original)
        original.title = "Home"
        original.items.append("a")
        try replica.apply(recorder.takeOperations())
        #expect(replica.title == "Home")
        #expect(replica.items == ["a"])
    }
}
