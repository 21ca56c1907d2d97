import Foundation
import ObservableCore
import Testing

// Each observable model has a plain twin, the same body without the macros, whose conformance the
// compiler synthesises: the two must encode to the same JSON and decode the same values.

private final class Owner: Codable {
    var name = "owner"
    init() {}
}

@propertyWrapper
private struct Clamped: Codable, Equatable {
    var wrappedValue: Int {
        didSet { wrappedValue = min(wrappedValue, 10) }
    }
}

/// An optional behind an alias: decoded with `decodeIfPresent` as the compiler's synthesis does, though
/// the macro sees no `?`.
private typealias MaybeText = String?

@KeyValueObservable
private final class Settings: Codable {
    var volume = 3
    var theme: String = "dark"
    var nickname: String?
    var alias: MaybeText = nil
    var tags: Set<String> = []
    weak var owner: Owner?
    unowned var keeper: Owner
    let id: Int
    @Unobserved var cache = 0
    @Observed(skipsEqualValues: true) var mode = 1
    @Clamped var level = 5
    var label: String { "\(theme) \(volume)" }
    lazy var lazyValue = 5
    static let shared = 0

    init(id: Int, keeper: Owner) {
        self.id = id
        self.keeper = keeper
    }
}

private final class PlainSettings: Codable {
    var volume = 3
    var theme: String = "dark"
    var nickname: String?
    var alias: MaybeText = nil
    var tags: Set<String> = []
    weak var owner: Owner?
    unowned var keeper: Owner
    let id: Int
    var cache = 0
    var mode = 1
    @Clamped var level = 5
    var label: String { "\(theme) \(volume)" }
    lazy var lazyValue = 5
    static let shared = 0

    init(id: Int, keeper: Owner) {
        self.id = id
        self.keeper = keeper
    }
}

/// The user's own `CodingKeys`, named as the user knows the properties, one renamed, one left out.
@KeyValueObservable
private final class Renamed: Codable {
    var volume = 3
    var theme = "dark"
    var scratch = 0

    private enum CodingKeys: String, CodingKey {
        case volume
        case theme = "t"
    }

    init() {}
}

@KeyValueObservable
class Document: Codable {
    var title = "untitled"
    var pages: [Int] = []
    init() {}
}

/// The compiler synthesises nothing for a subclass of a Codable class: it inherits the coding of its
/// superclass, which neither encodes nor decodes the subclass's own properties.
final class Chapter: Document {
    @Observed var number = 1
}

private class PlainDocument: Codable {
    var title = "untitled"
    var pages: [Int] = []
    init() {}
}

private final class PlainChapter: PlainDocument {
    var number = 1
}

/// A constant with an initial value is encoded but never decoded (the compiler's synthesis warns
/// about it, which is why it has no plain twin here).
@KeyValueObservable
private final class Stamped: Codable {
    let version = 2
    var body = ""
}

@KeyValueObservable
private final class Report: Encodable {
    var count = 1
    var note: String? = "n"
}

@KeyValueObservable
private final class Incoming: Decodable {
    var count = 1
    var note: String?
}

@KeyValueObservable
private final class Crate<Value: Codable & Sendable>: Codable {
    var value: Value
    var history: [Value] = []
    init(_ value: Value) { self.value = value }
}

private func json(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return String(decoding: try encoder.encode(value), as: UTF8.self)
}

private func decode<Value: Decodable>(_: Value.Type, _ text: String) throws -> Value {
    try JSONDecoder().decode(Value.self, from: Data(text.utf8))
}

@Suite("Codable models")
struct CodableTests {
    @Test("encodes what the compiler's synthesis encodes for the plain twin, keyed by the names as written")
    func encodesLikeTheTwin() throws {
        let owner = Owner()
        let keeper = Owner()
        let settings = Settings(id: 1, keeper: keeper)
        let plain = PlainSettings(id: 1, keeper: keeper)
        let expected =
            #"{"cache":0,"id":1,"keeper":{"name":"owner"},"level":{"wrappedValue":5},"mode":1,"tags":[],"theme":"dark","volume":3}"#
        #expect(try json(settings) == expected)
        #expect(try json(plain) == expected)

        settings.volume = 7
        settings.nickname = "n"
        settings.owner = owner
        settings.level = 50
        settings.alias = "a"
        settings.tags = ["t"]
        plain.volume = 7
        plain.nickname = "n"
        plain.owner = owner
        plain.level = 50
        plain.alias = "a"
        plain.tags = ["t"]
        let changed =
            #"{"alias":"a","cache":0,"id":1,"keeper":{"name":"owner"},"level":{"wrappedValue":10},"mode":1,"nickname":"n","owner":{"name":"owner"},"tags":["t"],"theme":"dark","volume":7}"#
        #expect(try json(settings) == changed)
        #expect(try json(plain) == changed)
        withExtendedLifetime(owner) {}
    }

    @Test("decodes what the plain twin decodes; optionals may be absent")
    func decodesLikeTheTwin() throws {
        let text =
            #"{"volume":9,"theme":"light","nickname":"nick","tags":[],"keeper":{"name":"k"},"id":4,"cache":5,"mode":6,"level":{"wrappedValue":8}}"#
        let settings = try decode(Settings.self, text)
        let plain = try decode(PlainSettings.self, text)
        let observed: [Int] = [settings.volume, settings.id, settings.cache, settings.mode, settings.level]
        let twin: [Int] = [plain.volume, plain.id, plain.cache, plain.mode, plain.level]
        #expect(observed == [9, 4, 5, 6, 8])
        #expect(twin == observed)
        #expect(settings.theme == "light" && plain.theme == "light")
        #expect(settings.nickname == "nick" && plain.nickname == "nick")
        #expect(settings.alias == nil && plain.alias == nil)
        #expect(settings.tags.isEmpty && plain.tags.isEmpty)
        let aliased = text.replacingOccurrences(of: #""tags":[]"#, with: #""alias":"a","tags":["t"]"#)
        #expect(try decode(Settings.self, aliased).alias == "a" && decode(PlainSettings.self, aliased).alias == "a")
        #expect(try decode(Settings.self, aliased).tags == ["t"] && decode(PlainSettings.self, aliased).tags == ["t"])
        // Decoded objects held only weakly or unowned are gone at once, as with the twin's synthesis.
        #expect(settings.owner == nil && plain.owner == nil)
    }

    @Test("random values: the twins encode alike and decode the same values")
    func randomTwins() throws {
        var random = SeededGenerator(seed: 0xC0DAB1E)
        let keeper = Owner()
        for _ in 0..<200 {
            let settings = Settings(id: Int.random(in: -5...5, using: &random), keeper: keeper)
            let plain = PlainSettings(id: settings.id, keeper: keeper)
            let volume = Int.random(in: 0...100, using: &random)
            let mode = Int.random(in: 0...3, using: &random)
            let theme = String(repeating: "ab\"é", count: Int.random(in: 0...3, using: &random))
            let nickname = Bool.random(using: &random) ? nil : "n\(volume)"
            let level = Int.random(in: 0...20, using: &random)
            settings.volume = volume
            plain.volume = volume
            settings.mode = mode
            plain.mode = mode
            settings.theme = theme
            plain.theme = theme
            settings.nickname = nickname
            plain.nickname = nickname
            settings.level = level
            plain.level = level
            let encoded = try json(settings)
            #expect(try json(plain) == encoded)
            // (Not re-encoded: the decoded `unowned` keeper is gone at once, as with synthesis.)
            let decoded = try decode(Settings.self, encoded)
            let twin = try decode(PlainSettings.self, encoded)
            let expected: [Int] = [volume, mode, min(level, 10), settings.id]
            let observed: [Int] = [decoded.volume, decoded.mode, decoded.level, decoded.id]
            let plainValues: [Int] = [twin.volume, twin.mode, twin.level, twin.id]
            #expect(observed == expected && plainValues == expected)
            #expect(
                decoded.theme == theme && twin.theme == theme && decoded.nickname == nickname
                    && twin.nickname == nickname)
        }
        withExtendedLifetime(keeper) {}
    }

    @Test("a missing key and a wrong type fail as they do for the plain twin")
    func decodingErrors() throws {
        let missing = #"{"theme":"light","keeper":{"name":"k"},"id":4,"cache":5,"mode":6,"level":{"wrappedValue":8}}"#
        for attempt in [{ _ = try decode(Settings.self, missing) }, { _ = try decode(PlainSettings.self, missing) }] {
            #expect {
                try attempt()
            } throws: { error in
                guard case DecodingError.keyNotFound(let key, _) = error else { return false }
                return key.stringValue == "volume"
            }
        }
        let wrongType = #"{"volume":"loud"}"#
        #expect(throws: DecodingError.self) { try decode(Settings.self, wrongType) }
    }

    @Test("a decoded instance is observable like any other: old and new values, key paths through it")
    func decodedIsObservable() throws {
        let settings = try decode(
            Settings.self,
            #"{"volume":9,"theme":"light","tags":[],"keeper":{"name":"k"},"id":4,"cache":5,"mode":6,"level":{"wrappedValue":8}}"#
        )
        var log: [String] = []
        let tokens = [
            settings.observe(\.volume, options: [.old, .new]) { _, change in
                log.append("volume \(change.oldValue!)->\(change.newValue!)")
            },
            settings.observe(\.label, options: [.new]) { _, change in log.append("label \(change.newValue!)") },
            try settings.observe(keyPath: "theme", options: [.new]) { _, change in
                log.append("theme \(change.newValue as! String)")
            },
        ]
        settings.volume = 10
        settings.theme = "dark"
        settings.cache = 1  // @Unobserved
        #expect(log == ["volume 9->10", "label light 10", "label dark 10", "theme dark"])
        withExtendedLifetime(tokens) {}
    }

    @Test("the user's CodingKeys, named as the properties are written, rename and omit as with the twin")
    func userCodingKeys() throws {
        let renamed = Renamed()
        renamed.scratch = 4
        #expect(try json(renamed) == #"{"t":"dark","volume":3}"#)
        let decoded = try decode(Renamed.self, #"{"t":"light","volume":8,"scratch":9}"#)
        #expect(decoded.theme == "light" && decoded.volume == 8 && decoded.scratch == 0)
        var themes: [String] = []
        let token = decoded.observe(\.theme, options: [.new]) { _, change in themes.append(change.newValue!) }
        decoded.theme = "blue"
        #expect(themes == ["blue"])
        withExtendedLifetime(token) {}
    }

    @Test("a subclass inherits its superclass's coding, as the plain twins do, and stays observable")
    func subclass() throws {
        let chapter = Chapter()
        let plain = PlainChapter()
        chapter.number = 3
        plain.number = 3
        chapter.pages = [1, 2]
        plain.pages = [1, 2]
        #expect(try json(chapter) == #"{"pages":[1,2],"title":"untitled"}"#)
        #expect(try json(plain) == json(chapter))

        let decoded = try decode(Chapter.self, #"{"title":"t","pages":[5]}"#)
        let plainDecoded = try decode(PlainChapter.self, #"{"title":"t","pages":[5]}"#)
        #expect(decoded.title == "t" && decoded.pages == [5] && decoded.number == 1)
        #expect(plainDecoded.title == "t" && plainDecoded.pages == [5] && plainDecoded.number == 1)
        var log: [String] = []
        let tokens = [
            decoded.observe(\.number, options: [.old, .new]) { _, change in
                log.append("number \(change.oldValue!)->\(change.newValue!)")
            },
            decoded.observe(\.pages, options: [.new]) { _, change in
                log.append("pages \(change.kind) \(change.indexes.map(rangesText) ?? "-") \(change.newValue!)")
            },
        ]
        decoded.number = 2
        decoded.pages.append(6)
        decoded.pages.remove(at: 0)
        #expect(log == ["number 1->2", "pages insertion [1..<2] [5, 6]", "pages removal [0..<1] [6]"])
        withExtendedLifetime(tokens) {}
    }

    @Test("a constant with an initial value is encoded, and kept when decoding")
    func constantWithValue() throws {
        #expect(try json(Stamped()) == #"{"body":"","version":2}"#)
        let decoded = try decode(Stamped.self, #"{"body":"b","version":99}"#)
        #expect(decoded.version == 2 && decoded.body == "b")
    }

    @Test("Encodable alone and Decodable alone get only their half")
    func halves() throws {
        #expect(try json(Report()) == #"{"count":1,"note":"n"}"#)
        let incoming = try decode(Incoming.self, #"{"count":4}"#)
        #expect(incoming.count == 4 && incoming.note == nil)
        var counts: [Int] = []
        let token = incoming.observe(\.count, options: [.new]) { _, change in counts.append(change.newValue!) }
        incoming.count = 5
        #expect(counts == [5])
        withExtendedLifetime(token) {}
    }

    @Test("a generic class codes its generic properties")
    func generic() throws {
        let box = Crate(3)
        box.history = [1, 2]
        #expect(try json(box) == #"{"history":[1,2],"value":3}"#)
        let decoded = try decode(Crate<String>.self, #"{"value":"a","history":["b"]}"#)
        #expect(decoded.value == "a" && decoded.history == ["b"])
        var values: [String] = []
        let token = decoded.observe(\.value, options: [.new]) { _, change in values.append(change.newValue!) }
        decoded.value = "c"
        #expect(values == ["c"])
        withExtendedLifetime(token) {}
    }
}
