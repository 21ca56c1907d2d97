import Foundation
import ObservableCore
import Testing

private struct Brush {}

@KeyValueObservable
private final class Sketch {
    var title = ""
    var brush = Brush()
}

@KeyValueObservable
private final class Label: Codable {
    var text = ""
    init() {}
}

extension Label: Hashable {
    static func == (lhs: Label, rhs: Label) -> Bool { lhs === rhs }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

@KeyValueObservable
private final class Board {
    var labels: Set<Label> = []
}

@KeyValueObservable
private final class Desk {
    var item: (any KeyValueObservable)?
}

@KeyValueObservable
private final class Meter: Codable {
    enum Unit: String, Codable { case metric, imperial }
    struct Span: Codable { var low = 0.0, high = 1.0 }
    var count = 0
    var on = false
    var ratio = 0.5
    var small: Int8 = 0
    var big: UInt64 = 0
    var unit = Unit.metric
    var span = Span()
    var limit: Int?
    var stamp = Date(timeIntervalSince1970: 0)
    init() {}
}

@KeyValueObservable
private final class Tally: Codable {
    var count = 0
    var label: String?
    var marks: [Int] = []
    init() {}
}

/// `value` as `JSONEncoder` writes it, read back.
private func reference(_ value: some Encodable) throws -> JSONValue {
    try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
}

private func pointer(_ text: String) -> JSONPointer {
    try! JSONPointer(text)
}

@Suite("Recording a document's edits as a JSON Patch")
struct JSONPatchRecorderTests {
    @Test("a set is a replace; an optional that was nil is added, one set to nil removed; nil to nil is nothing")
    func sets() throws {
        let book = Manuscript()
        let recorder = try JSONPatchRecorder(recording: book)
        book.title = "Emma"
        book.subtitle = "A Novel"
        book.subtitle = "A Novel in Three Volumes"
        book.subtitle = nil
        book.subtitle = nil
        #expect(
            try recorder.operations == [
                JSONPatchOperation(.replace(.string("Emma")), at: pointer("/title")),
                JSONPatchOperation(.add(.string("A Novel")), at: pointer("/subtitle")),
                JSONPatchOperation(.replace(.string("A Novel in Three Volumes")), at: pointer("/subtitle")),
                JSONPatchOperation(.remove, at: pointer("/subtitle")),
            ])
    }

    @Test("with tests of old values, each replace and remove follows a test of what it replaces")
    func testsOldValues() throws {
        let book = Manuscript()
        book.tags = ["a", "b"]
        let recorder = try JSONPatchRecorder(recording: book, testingOldValues: true)
        book.title = "Emma"
        book.subtitle = "A Novel"
        book.subtitle = nil
        book.tags.remove(at: 0)
        book.tags[0] = "c"
        #expect(
            try recorder.operations == [
                JSONPatchOperation(.test(.string("")), at: pointer("/title")),
                JSONPatchOperation(.replace(.string("Emma")), at: pointer("/title")),
                JSONPatchOperation(.add(.string("A Novel")), at: pointer("/subtitle")),
                JSONPatchOperation(.test(.string("A Novel")), at: pointer("/subtitle")),
                JSONPatchOperation(.remove, at: pointer("/subtitle")),
                JSONPatchOperation(.test(.string("a")), at: pointer("/tags/0")),
                JSONPatchOperation(.remove, at: pointer("/tags/0")),
                JSONPatchOperation(.test(.string("b")), at: pointer("/tags/0")),
                JSONPatchOperation(.replace(.string("c")), at: pointer("/tags/0")),
            ])
    }

    @Test("an array changed in place: adds ascending, removes descending, replaces per index; nil elements are null")
    func arraysInPlace() throws {
        let book = Manuscript()
        let recorder = try JSONPatchRecorder(recording: book)
        book.tags.append("x")
        book.tags += ["y", "z"]
        book.tags.removeSubrange(0..<2)
        book.tags[0] = "q"
        book.ratings.append(nil)
        book.tags = ["whole"]
        #expect(
            try recorder.operations == [
                JSONPatchOperation(.add(.string("x")), at: pointer("/tags/0")),
                JSONPatchOperation(.add(.string("y")), at: pointer("/tags/1")),
                JSONPatchOperation(.add(.string("z")), at: pointer("/tags/2")),
                JSONPatchOperation(.remove, at: pointer("/tags/1")),
                JSONPatchOperation(.remove, at: pointer("/tags/0")),
                JSONPatchOperation(.replace(.string("q")), at: pointer("/tags/0")),
                JSONPatchOperation(.add(.null), at: pointer("/ratings/0")),
                JSONPatchOperation(.replace(.array([.string("whole")])), at: pointer("/tags")),
            ])
    }

    @Test("a new child is added encoded as it was then; its later edits are at its place as it moves")
    func children() throws {
        let book = Manuscript()
        let recorder = try JSONPatchRecorder(recording: book)
        let one = Part("one")
        book.parts.append(one)
        one.title = "uno"
        book.parts.insert(Part("zero"), at: 0)
        one.notes.append("n")
        book.lead = one
        one.title = "eins"
        let encodedOne: JSONValue = .object([("title", .string("one")), ("notes", .array([]))])
        let encodedZero: JSONValue = .object([("title", .string("zero")), ("notes", .array([]))])
        let encodedLead: JSONValue = .object([("title", .string("uno")), ("notes", .array([.string("n")]))])
        let operations = try recorder.operations
        #expect(
            operations.prefix(5) == [
                JSONPatchOperation(.add(encodedOne), at: pointer("/parts/0")),
                JSONPatchOperation(.replace(.string("uno")), at: pointer("/parts/0/title")),
                JSONPatchOperation(.add(encodedZero), at: pointer("/parts/0")),
                JSONPatchOperation(.add(.string("n")), at: pointer("/parts/1/notes/0")),
                JSONPatchOperation(.add(encodedLead), at: pointer("/lead")),
            ])
        // Held twice, `one` is encoded at both places and changes at both, in the order the graph finds them.
        #expect(operations.count == 7)
        #expect(Set(operations.suffix(2).map(\.path)) == [pointer("/parts/1/title"), pointer("/lead/title")])
        #expect(operations.suffix(2).allSatisfy { $0.operation == .replace(.string("eins")) })
    }

    @Test("weak properties and those hidden from string keys are not part of the document")
    func notRecorded() throws {
        let book = Manuscript()
        let part = Part()
        book.parts = [part]
        let recorder = try JSONPatchRecorder(recording: book)
        part.manuscript = book
        book.redraft()
        #expect(try recorder.operations.isEmpty)
    }

    @Test("recording refuses a property that is not Encodable, and objects in a set, naming the property")
    func refusedAtStart() {
        #expect {
            _ = try JSONPatchRecorder(recording: Sketch())
        } throws: { error in
            (error as? PatchRecordingError).map {
                $0.location == "Sketch.brush" && $0.reason == .notEncodable(type: "Brush")
            } ?? false
        }
        #expect {
            _ = try JSONPatchRecorder(recording: Board())
        } throws: { error in
            (error as? PatchRecordingError).map {
                $0.location == "Board.labels" && $0.reason == .objectsInSet(type: "Set<Label>")
            } ?? false
        }
    }

    @Test("an object of a class that cannot be recorded, set later, makes the patch throw instead of losing it")
    func refusedLater() throws {
        let desk = Desk()
        let recorder = try JSONPatchRecorder(recording: desk)
        desk.item = Sketch()
        #expect {
            _ = try recorder.operations
        } throws: { error in
            (error as? PatchRecordingError).map {
                $0.location == "Sketch.brush" && $0.reason == .notEncodable(type: "Brush")
            } ?? false
        }
        #expect(throws: PatchRecordingError.self) { try recorder.takeOperations() }
    }

    @Test("takeOperations hands over what was recorded and starts afresh; stop ends recording")
    func takeAndStop() throws {
        let book = Manuscript()
        let recorder = try JSONPatchRecorder(recording: book)
        book.title = "a"
        #expect(try recorder.takeOperations() == [JSONPatchOperation(.replace(.string("a")), at: pointer("/title"))])
        #expect(try recorder.takeOperations().isEmpty)
        book.title = "b"
        recorder.stop()
        book.title = "c"
        #expect(try recorder.operations == [JSONPatchOperation(.replace(.string("b")), at: pointer("/title"))])
    }

    @Test("sets on several threads while others read: every operation once, each thread's in order, each read a prefix")
    func concurrentSetsAndReads() throws {
        let book = Manuscript()
        book.parts = (0..<4).map { Part("\($0)") }
        let recorder = try JSONPatchRecorder(recording: book)
        let reads = Locked<[[JSONPatchOperation]]>([])
        let rounds = 1000
        // Each part is set on one thread only.
        nonisolated(unsafe) let parts = book.parts
        let setters: [@Sendable () -> Void] = parts.indices.map { index in
            {
                for round in 0..<rounds {
                    parts[index].title = String(round)
                    parts[index].notes = [String(round)]
                }
            }
        }
        let readers: [@Sendable () -> Void] = (0..<3).map { _ in
            {
                for _ in 0..<200 {
                    usleep(50)  // so that changes gather, and readers overlap while making them into operations
                    let read = try! recorder.operations
                    reads.withLock { $0.append(read) }
                }
            }
        }
        runConcurrently(setters + readers)
        let operations = try recorder.takeOperations()
        // Each read is what was recorded until then.
        #expect(reads.withLock { $0.allSatisfy { operations.starts(with: $0) } })
        #expect(operations.count == 4 * 2 * rounds)
        for index in 0..<4 {
            let titles = operations.filter { $0.path == pointer("/parts/\(index)/title") }.map(\.operation)
            #expect(titles == (0..<rounds).map { .replace(.string(String($0))) })
            let notes = operations.filter { $0.path == pointer("/parts/\(index)/notes") }.map(\.operation)
            #expect(notes == (0..<rounds).map { .replace(.array([.string(String($0))])) })
        }
    }

    @Test("a value kept as it was set is encoded when read, as it was then; reading twice gives the same")
    func encodedWhenRead() throws {
        let book = Manuscript()
        let part = Part("p")
        book.parts = [part]
        let recorder = try JSONPatchRecorder(recording: book, testingOldValues: true)
        book.title = "a"
        part.title = "q"
        book.parts.insert(Part("first"), at: 0)
        book.title = "b"
        let expected = [
            JSONPatchOperation(.test(.string("")), at: pointer("/title")),
            JSONPatchOperation(.replace(.string("a")), at: pointer("/title")),
            JSONPatchOperation(.test(.string("p")), at: pointer("/parts/0/title")),
            JSONPatchOperation(.replace(.string("q")), at: pointer("/parts/0/title")),
            JSONPatchOperation(
                .add(.object([("title", .string("first")), ("notes", .array([]))])), at: pointer("/parts/0")),
            JSONPatchOperation(.test(.string("a")), at: pointer("/title")),
            JSONPatchOperation(.replace(.string("b")), at: pointer("/title")),
        ]
        #expect(try recorder.operations == expected)
        #expect(try recorder.operations == expected)
        book.title = "c"
        let last = try recorder.takeOperations().suffix(2).map(\.operation)
        #expect(last == [.test(.string("b")), .replace(.string("c"))])
    }

    @Test("sets of numbers, kept apart from other changes, are read back in the order of all the changes")
    func orderOfKinds() throws {
        let tally = Tally()
        let recorder = try JSONPatchRecorder(recording: tally, testingOldValues: true)
        tally.count = 1
        tally.label = "a"
        tally.count = 2
        tally.label = nil
        tally.label = nil
        tally.marks.append(5)
        tally.count = 3
        #expect(
            try recorder.takeOperations() == [
                JSONPatchOperation(.test(.integer(0)), at: pointer("/count")),
                JSONPatchOperation(.replace(.integer(1)), at: pointer("/count")),
                JSONPatchOperation(.add(.string("a")), at: pointer("/label")),
                JSONPatchOperation(.test(.integer(1)), at: pointer("/count")),
                JSONPatchOperation(.replace(.integer(2)), at: pointer("/count")),
                JSONPatchOperation(.test(.string("a")), at: pointer("/label")),
                JSONPatchOperation(.remove, at: pointer("/label")),
                JSONPatchOperation(.add(.integer(5)), at: pointer("/marks/0")),
                JSONPatchOperation(.test(.integer(2)), at: pointer("/count")),
                JSONPatchOperation(.replace(.integer(3)), at: pointer("/count")),
            ])
        tally.label = "b"
        tally.count = 4
        tally.label = nil
        #expect(
            try recorder.operations == [
                JSONPatchOperation(.add(.string("b")), at: pointer("/label")),
                JSONPatchOperation(.test(.integer(3)), at: pointer("/count")),
                JSONPatchOperation(.replace(.integer(4)), at: pointer("/count")),
                JSONPatchOperation(.test(.string("b")), at: pointer("/label")),
                JSONPatchOperation(.remove, at: pointer("/label")),
            ])
    }

    @Test("untested: a value replaced is its replace alone; a value from or to nil is an add or a remove")
    func untestedSets() throws {
        let meter = Meter()
        let tally = Tally()
        let meterRecorder = try JSONPatchRecorder(recording: meter)
        let tallyRecorder = try JSONPatchRecorder(recording: tally)
        meter.limit = 1
        meter.limit = 2
        meter.limit = nil
        meter.small = 3
        tally.label = "a"
        tally.label = "b"
        tally.label = nil
        tally.count = 1
        #expect(
            try meterRecorder.takeOperations() == [
                JSONPatchOperation(.add(.integer(1)), at: pointer("/limit")),
                JSONPatchOperation(.replace(.integer(2)), at: pointer("/limit")),
                JSONPatchOperation(.remove, at: pointer("/limit")),
                JSONPatchOperation(.replace(.integer(3)), at: pointer("/small")),
            ])
        #expect(
            try tallyRecorder.takeOperations() == [
                JSONPatchOperation(.add(.string("a")), at: pointer("/label")),
                JSONPatchOperation(.replace(.string("b")), at: pointer("/label")),
                JSONPatchOperation(.remove, at: pointer("/label")),
                JSONPatchOperation(.replace(.integer(1)), at: pointer("/count")),
            ])
    }

    @Test(
        "plain values of every kind, encoded when read, are what JSONEncoder writes, old ones tested or not",
        arguments: [true, false])
    func plainValues(testing: Bool) throws {
        let meter = Meter()
        let recorder = try JSONPatchRecorder(recording: meter, testingOldValues: testing)
        meter.count = -7
        meter.on = true
        meter.ratio = 2.25
        meter.small = -3
        meter.big = .max
        meter.unit = .imperial
        meter.span = Meter.Span(low: -1, high: 0.125)
        meter.limit = 4
        meter.limit = nil
        meter.stamp = Date(timeIntervalSince1970: 1_000.5)
        func replaced(_ name: String, _ old: some Encodable, _ new: some Encodable) throws -> [JSONPatchOperation] {
            let replace = JSONPatchOperation(.replace(try reference(new)), at: pointer("/" + name))
            return testing
                ? [JSONPatchOperation(.test(try reference(old)), at: pointer("/" + name)), replace] : [replace]
        }
        let expected: [JSONPatchOperation] =
            try replaced("count", 0, -7) + replaced("on", false, true) + replaced("ratio", 0.5, 2.25)
            + replaced("small", Int8(0), Int8(-3)) + replaced("big", UInt64(0), UInt64.max)
            + replaced("unit", Meter.Unit.metric, Meter.Unit.imperial)
            + replaced("span", Meter.Span(), Meter.Span(low: -1, high: 0.125)) + [
                JSONPatchOperation(.add(.integer(4)), at: pointer("/limit"))
            ] + (testing ? [JSONPatchOperation(.test(.integer(4)), at: pointer("/limit"))] : []) + [
                JSONPatchOperation(.remove, at: pointer("/limit"))
            ]
            + replaced("stamp", Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_000.5))
        #expect(try recorder.operations == expected)
    }

    @Test("a freed recorder stops recording; the document is not kept alive by it")
    func lifetimes() throws {
        weak var freedBook: Manuscript?
        do {
            let book = Manuscript()
            freedBook = book
            var recorder: JSONPatchRecorder? = try JSONPatchRecorder(recording: book)
            weak let freedRecorder = recorder
            book.title = "a"
            #expect(try recorder?.operations.count == 1)
            recorder = nil
            #expect(freedRecorder == nil)
            book.title = "b"
        }
        #expect(freedBook == nil)
    }

    @Test("random edits, shared children included: the patch applied to the starting JSON gives the document's JSON")
    func randomRoundTrip() throws {
        var generator = SeededGenerator(seed: 0x5EED_0059)
        let encoder = JSONEncoder()
        let decoder = JSONDecoder()
        for _ in 0..<40 {
            let book = Manuscript()
            var state = try decoder.decode(JSONValue.self, from: encoder.encode(book))
            let recorder = try JSONPatchRecorder(recording: book, testingOldValues: Bool.random(using: &generator))
            for _ in 0..<30 {
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    book.randomEdit(using: &generator)
                }
                state = try state.applying(recorder.takeOperations())
                #expect(state == (try decoder.decode(JSONValue.self, from: encoder.encode(book))))
            }
        }
    }
}
