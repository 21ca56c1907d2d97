import Foundation
import ObservableCore
import Observation
import Testing

// Decoding builds what plain Swift's synthesised `init(from:)` builds: the storage initialised, no
// `willSet`/`didSet` run, nobody notified. Each observable model has a plain twin with the same body
// (whose conformance the compiler synthesises); both decode the same random documents, values a
// `didSet` would clamp included, and must hold the same values and have logged the same (nothing).

/// What both twins of a decoding model offer the test.
private protocol DecodedLevels: AnyObject {
    var log: [String] { get set }
    var volume: Int { get set }
    var nickname: String? { get set }
    var level: Int { get set }
    var id: Int { get }
}

@KeyValueObservable
private final class ObservedLevels: DecodedLevels, Codable {
    @Unobserved var log: [String] = []
    var volume = 3 {
        willSet { log.append("volume will \(volume)->\(newValue)") }
        didSet {
            log.append("volume did \(oldValue)->\(volume)")
            volume = min(volume, 10)
        }
    }
    var nickname: String? {
        didSet { log.append("nickname \(oldValue ?? "nil")->\(nickname ?? "nil")") }
    }
    var level: Int {
        didSet { level = max(0, min(level, 5)) }
    }
    let id: Int
    let kind = "levels"

    enum CodingKeys: String, CodingKey {
        case volume
        case nickname = "nick"
        case level
        case id
    }

    init(level: Int, id: Int) {
        self.level = level
        self.id = id
    }
}

private final class PlainLevels: DecodedLevels, Codable {
    var log: [String] = []
    var volume = 3 {
        willSet { log.append("volume will \(volume)->\(newValue)") }
        didSet {
            log.append("volume did \(oldValue)->\(volume)")
            volume = min(volume, 10)
        }
    }
    var nickname: String? {
        didSet { log.append("nickname \(oldValue ?? "nil")->\(nickname ?? "nil")") }
    }
    var level: Int {
        didSet { level = max(0, min(level, 5)) }
    }
    let id: Int
    let kind = "levels"

    enum CodingKeys: String, CodingKey {
        case volume
        case nickname = "nick"
        case level
        case id
    }

    init(level: Int, id: Int) {
        self.level = level
        self.id = id
    }
}

/// A non-final class: its `init(from:)` is `required`, and a subclass inherits it.
@KeyValueObservable
private class ObservedPanel: Codable {
    var log: [String] = []
    var brightness = 5 {
        didSet {
            log.append("brightness \(oldValue)->\(brightness)")
            brightness = min(brightness, 10)
        }
    }
    var title: String? = "untitled" {
        willSet { log.append("title will \(title ?? "nil")->\(newValue ?? "nil")") }
    }

    init() {}
}

private class PlainPanel: Codable {
    var log: [String] = []
    var brightness = 5 {
        didSet {
            log.append("brightness \(oldValue)->\(brightness)")
            brightness = min(brightness, 10)
        }
    }
    var title: String? = "untitled" {
        willSet { log.append("title will \(title ?? "nil")->\(newValue ?? "nil")") }
    }

    init() {}
}

private final class ObservedSubpanel: ObservedPanel {}

/// A class reporting to Observation, which sees every mutation through its own `withMutation`.
@KeyValueObservable
private final class Journal: Observable, Codable {
    @Unobserved var mutations: [PartialKeyPath<Journal>] = []
    var title = "untitled"
    var pages: [Int] = []

    func withMutation<Member, Result>(
        keyPath: KeyPath<Journal, Member>, _ mutation: () throws -> Result
    ) rethrows -> Result {
        mutations.append(keyPath)
        return try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
    }

    enum CodingKeys: CodingKey {
        case title
        case pages
    }
}
private final class PlainSubpanel: PlainPanel {}

private func json(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return String(decoding: try encoder.encode(value), as: UTF8.self)
}

private func decode<Value: Decodable>(_: Value.Type, _ document: [String: Any]) throws -> Value {
    try JSONDecoder().decode(Value.self, from: JSONSerialization.data(withJSONObject: document))
}

@Suite("Decoding runs no observers, as plain Swift's synthesis")
struct DecodingTwinTests {
    @Test("the issue's example: a clamping didSet does not run on load", arguments: [false, true])
    func clampNotRunOnLoad(subclass: Bool) throws {
        let document: [String: Any] = ["brightness": 50, "title": "t", "log": ["kept"]]
        let observed = try decode(subclass ? ObservedSubpanel.self : ObservedPanel.self, document)
        let plain = try decode(subclass ? PlainSubpanel.self : PlainPanel.self, document)
        #expect(observed.brightness == 50 && plain.brightness == 50)
        #expect(observed.log == ["kept"] && plain.log == ["kept"])
        #expect(observed.title == "t" && plain.title == "t")
        // After decoding, a set runs the observers and notifies, as for any instance.
        var heard: [Int] = []
        let token = observed.observe(\.brightness) { _, change in heard.append(change.newValue!) }
        observed.brightness = 20
        plain.brightness = 20
        #expect(observed.brightness == 10 && plain.brightness == 10)
        #expect(observed.log == plain.log && plain.log == ["kept", "brightness 50->20"])
        #expect(heard == [10])
        withExtendedLifetime(token) {}
    }

    @Test("decoding is no mutation for Observation either: no withMutation, and tracking is not told")
    func noObservationMutation() throws {
        let journal = try decode(Journal.self, ["title": "t", "pages": [1, 2]])
        #expect(journal.mutations.isEmpty && journal.title == "t" && journal.pages == [1, 2])
        let changes = Locked(0)
        withObservationTracking {
            _ = journal.title
        } onChange: {
            changes.withLock { $0 += 1 }
        }
        journal.title = "u"
        #expect(journal.mutations == [\Journal.title] && changes.withLock { $0 } == 1)
    }

    @Test("random documents: the twins decode the same values, log nothing, and encode alike", arguments: [1, 2, 3])
    func randomDocuments(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        for step in 0..<300 {
            // Synthesised decoding needs every non-optional key, initial values or not.
            var document: [String: Any] = [
                "level": Int.random(in: -10...20, using: &random), "id": Int.random(in: -5...5, using: &random),
                "volume": Int.random(in: -20...40, using: &random),
            ]
            switch Int.random(in: 0..<3, using: &random) {
            case 0: document["nick"] = "n\(step)"
            case 1: document["nick"] = NSNull()
            default: break
            }
            if Bool.random(using: &random) { document["kind"] = "ignored" }
            let observed = try decode(ObservedLevels.self, document)
            let plain = try decode(PlainLevels.self, document)
            try compare(observed, plain, "seed \(seed), step \(step), \(document)")
            #expect(observed.log.isEmpty && observed.kind == "levels")
            #expect(observed.level == document["level"] as? Int)
            #expect(observed.volume == document["volume"] as? Int)

            // Then the same sets on both: the observers run and clamp as written.
            for _ in 0..<3 {
                let value = Int.random(in: -20...40, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0:
                    observed.volume = value
                    plain.volume = value
                case 1:
                    observed.level = value
                    plain.level = value
                default:
                    observed.nickname = value < 0 ? nil : "v\(value)"
                    plain.nickname = value < 0 ? nil : "v\(value)"
                }
            }
            try compare(observed, plain, "seed \(seed), step \(step), after sets")

            let panelDocument: [String: Any] = [
                "brightness": Int.random(in: -5...30, using: &random),
                "title": Bool.random(using: &random) ? "p\(step)" : NSNull(),
                "log": [String](),
            ]
            let panel = try decode(ObservedPanel.self, panelDocument)
            let plainPanel = try decode(PlainPanel.self, panelDocument)
            #expect(try json(panel) == json(plainPanel))
            #expect(panel.log.isEmpty && plainPanel.log.isEmpty)
            #expect(panel.brightness == panelDocument["brightness"] as? Int)
        }
    }

    private func compare(_ observed: ObservedLevels, _ plain: PlainLevels, _ context: String) throws {
        #expect(observed.log == plain.log, "\(context)")
        #expect(observed.volume == plain.volume, "\(context)")
        #expect(observed.nickname == plain.nickname, "\(context)")
        #expect(observed.level == plain.level, "\(context)")
        #expect(observed.id == plain.id, "\(context)")
        #expect(try json(observed) == json(plain), "\(context)")
    }
}
