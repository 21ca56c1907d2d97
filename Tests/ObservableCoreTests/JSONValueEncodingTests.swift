import Foundation
import ObservableCore
import Testing

/// `JSONValue(encoding:)` writes the tree itself; what it gives must be what JSONEncoder's text
/// reads back as.
@Suite("Encoding into a JSONValue, as JSONEncoder writes it")
struct JSONValueEncodingTests {
    private enum Shape: Codable, Equatable {
        case circle(radius: Double)
        case polygon([Int], closed: Bool)
        case none
    }

    private struct Sample: Codable {
        var text = "a\"b\n"
        var flag = true
        var small: Int8 = -3
        var large = UInt64.max
        var half: Float = 0.1
        var whole = 2.0
        var fraction = 0.25
        var date = Date(timeIntervalSinceReferenceDate: 12.5)
        var data = Data([1, 2, 3])
        var url = URL(string: "https://example.com/a?b=c")!
        var decimal = Decimal(string: "1.5")!
        var missing: String? = nil
        var present: String? = "p"
        var nested: [[Int?]] = [[1, nil], []]
        var byName: [String: Int] = ["x": 1]
        var byNumber: [Int: String] = [3: "three"]
        var shapes: [Shape] = [.circle(radius: 1.5), .polygon([1, 2], closed: false), .none]
    }

    private static func viaText(_ value: some Encodable) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
    }

    @Test("every kind of value gives what JSONEncoder's text reads back as")
    func sameAsText() throws {
        #expect(try JSONValue(encoding: Sample()) == Self.viaText(Sample()))
        for value in [0, -1, Int.max, Int.min] {
            #expect(try JSONValue(encoding: value) == Self.viaText(value))
        }
        #expect(try JSONValue(encoding: "fragment") == .string("fragment"))
        #expect(try JSONValue(encoding: 1.0) == .integer(1))
    }

    @Test("documents of objects, random ones included, encode as their text does")
    func documents() throws {
        var generator = SeededGenerator(seed: 0xE4C0_0059)
        for _ in 0..<20 {
            let book = Manuscript()
            for _ in 0..<20 { book.randomEdit(using: &generator) }
            #expect(try JSONValue(encoding: book) == Self.viaText(book))
        }
    }

    @Test("an object of many members encodes as its text does, a key written twice keeping the last value")
    func manyMembers() throws {
        let counts = Dictionary(uniqueKeysWithValues: (0..<2_000).map { ("k\($0)", $0) })
        let encoded = try JSONValue(encoding: counts)
        #expect(try encoded == Self.viaText(counts))
        guard case .object(let members) = encoded else {
            Issue.record("not an object: \(encoded)")
            return
        }
        let byName = Dictionary(uniqueKeysWithValues: members.map { ($0.name, $0.value) })
        let expected: [String: JSONValue] = counts.mapValues { .integer(Int64($0)) }
        #expect(members.count == 2_000)
        #expect(byName == expected)

        let twice = try JSONValue(encoding: KeysWrittenTwice())
        #expect(try twice == Self.viaText(KeysWrittenTwice()))
        guard case .object(let written) = twice else {
            Issue.record("not an object: \(twice)")
            return
        }
        let values: [JSONValue] = (0..<20).map { .integer($0 == 3 || $0 == 15 ? -1 : Int64($0)) }
        #expect(written.map(\.name) == (0..<20).map { "k\($0)" })
        #expect(written.map(\.value) == values)
    }

    @Test("a number JSON cannot write is refused, as JSONEncoder refuses it")
    func notFinite() {
        #expect(throws: EncodingError.self) { try JSONValue(encoding: Double.nan) }
        #expect(throws: EncodingError.self) { try JSONValue(encoding: [Float.infinity]) }
    }
}

/// Twenty keys, two of them written again after the others.
private struct KeysWrittenTwice: Encodable {
    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for index in 0..<20 { try container.encode(index, forKey: Key(stringValue: "k\(index)")) }
        try container.encode(-1, forKey: Key(stringValue: "k3"))
        try container.encode(-1, forKey: Key(stringValue: "k15"))
    }
}
