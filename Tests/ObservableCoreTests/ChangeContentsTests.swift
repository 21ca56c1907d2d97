import ObservableCore
import Testing

/// One notification as every kind of change can state it: phase, kind, and the values as text (`-`
/// for a value not carried).
private struct Heard: Equatable, CustomStringConvertible {
    var phase: String
    var kind: ObservedChangeKind
    var old: String
    var new: String

    init(isPrior: Bool, kind: ObservedChangeKind, old: Any?, new: Any?) {
        phase = isPrior ? "prior" : "post"
        self.kind = kind
        self.old = Self.text(old)
        self.new = Self.text(new)
    }

    /// A value as text, seen through its optionals.
    private static func text(_ value: Any?) -> String {
        guard let value else { return "-" }
        if let optional = value as? String? { return optional.map { "\($0)" } ?? "-" }
        return "\(value)"
    }

    init<Value>(_ change: ObservedChange<Value>) {
        self.init(isPrior: change.isPrior, kind: change.kind, old: change.oldValue, new: change.newValue)
    }

    init(_ change: KeyedChange) {
        self.init(isPrior: change.isPrior, kind: change.kind, old: change.oldValue, new: change.newValue)
    }

    init(_ change: PropertyChange) {
        self.init(isPrior: change.isPrior, kind: change.kind, old: change.oldValue, new: change.newValue)
    }

    var description: String { "\(phase) \(kind) \(old) \(new)" }
}

/// Several observers of one person, each asked for `options` through a different kind of observation.
@MainActor
private final class Listeners {
    var heard: [String: [Heard]] = [:]
    var tokens: [ObservationToken] = []

    init(_ person: Person, options: ObservationOptions) {
        let whole = PropertyObservationOptions(rawValue: options.rawValue)
        func record(_ key: String, _ heard: Heard) { self.heard[key, default: []].append(heard) }
        func typed<Value>(_ key: String) -> (Person, ObservedChange<Value>) -> Void {
            { _, change in record(key, Heard(change)) }
        }
        func keyed(_ key: String) -> (Person, KeyedChange) -> Void {
            { _, change in record(key, Heard(change)) }
        }
        func property(_ kind: String) -> (Person, PropertyChange) -> Void {
            { _, change in record("\(kind) \(change.path)", Heard(change)) }
        }
        tokens = [
            person.observe(\.age, options: options, typed("token age")),
            person.observe(\.name, options: options, typed("token name")),
            person.observe(\.tags, options: options, typed("token tags")),
            person.observe(\.address?.city, options: options, typed("token address.city")),
            try! person.observe(keyPath: "age", options: options, keyed("key age")),
            try! person.observe(keyPath: "name", options: options, keyed("key name")),
            try! person.observe(keyPath: "tags", options: options, keyed("key tags")),
            try! person.observe(keyPath: "address.city", options: options, keyed("key address.city")),
            person.observeProperties(options: whole, property("object")),
            person.observeProperties(options: whole, deep: true, property("graph")),
        ]
    }
}

@Suite("Every kind of change carries what its options ask, decided in one place")
@MainActor
struct ChangeContentsTests {
    /// Each combination of the options that decide what a change carries.
    nonisolated static let optionSets: [ObservationOptions] = (0..<8).map { bits in
        var options: ObservationOptions = []
        if bits & 1 != 0 { options.insert(.old) }
        if bits & 2 != 0 { options.insert(.new) }
        if bits & 4 != 0 { options.insert(.prior) }
        return options
    }

    /// What one change from `old` to `new` sends with `options`: the prior notification without the
    /// new value (nor, for a collection, its kind), then the change.
    fileprivate nonisolated static func expected(
        _ options: ObservationOptions, _ kind: ObservedChangeKind, old: String, new: String
    ) -> [Heard] {
        var heard: [Heard] = []
        let oldValue = options.contains(.old) ? old : nil
        if options.contains(.prior) {
            heard.append(Heard(isPrior: true, kind: .setting, old: oldValue, new: nil))
        }
        heard.append(Heard(isPrior: false, kind: kind, old: oldValue, new: options.contains(.new) ? new : nil))
        return heard
    }

    @Test(
        "tokens, string keys, paths, whole objects and graphs carry the same values for each option set",
        arguments: optionSets)
    func sameContents(options: ObservationOptions) {
        let person = Person(name: "a")
        person.address = Address(city: "x")
        let listeners = Listeners(person, options: options)
        person.age = 1
        person.name = "b"
        person.tags.append("t")
        person.address?.city = "y"

        let age = Self.expected(options, .setting, old: "0", new: "1")
        let name = Self.expected(options, .setting, old: "a", new: "b")
        let tags = Self.expected(options, .insertion, old: "[]", new: "[\"t\"]")
        let city = Self.expected(options, .setting, old: "x", new: "y")
        let expected: [String: [Heard]] = [
            "token age": age, "key age": age, "object age": age, "graph age": age,
            "token name": name, "key name": name, "object name": name, "graph name": name,
            "token tags": tags, "key tags": tags, "object tags": tags, "graph tags": tags,
            "token address.city": city, "key address.city": city, "graph address.city": city,
        ]
        #expect(listeners.heard == expected, "options \(options)")
        withExtendedLifetime(listeners.tokens) {}
    }

    @Test("a controller's changes carry what a token's do", arguments: optionSets)
    func controllerContents(options: ObservationOptions) {
        final class Screen {}
        let screen = Screen()
        let person = Person(name: "a")
        let controller = ObservationController(observer: screen)
        var heard: [String: [Heard]] = [:]
        controller.observe(person, \.age, options: options) { _, _, change in
            heard["age", default: []].append(Heard(change))
        }
        try! controller.observe(person, keyPath: "name", options: options) { _, _, change in
            heard["name", default: []].append(Heard(change))
        }
        person.age = 1
        person.name = "b"
        #expect(
            heard == [
                "age": Self.expected(options, .setting, old: "0", new: "1"),
                "name": Self.expected(options, .setting, old: "a", new: "b"),
            ], "options \(options)")
    }

    @Test("an actor's deliveries carry what a token's do", arguments: optionSets)
    func actorContents(options: ObservationOptions) {
        let person = Person(name: "a")
        var onActor: [Heard] = []
        let token = person.observe(\.name, options: options, isolation: MainActor.shared) { change in
            onActor.append(Heard(change))
        }
        person.name = "b"
        #expect(onActor == Self.expected(options, .setting, old: "a", new: "b"), "options \(options)")
        withExtendedLifetime(token) {}
    }
}

@Suite("A sequence's changes carry what its options ask")
struct ChangeSequenceContentsTests {
    @Test("a sequence's elements carry what a token's do", arguments: ChangeContentsTests.optionSets)
    func sequenceContents(options: ObservationOptions) async {
        let person = Person(name: "a")
        let expected = ChangeContentsTests.expected(options, .setting, old: "0", new: "1")
        var iterator = person.changes(of: \.age, options: options).makeAsyncIterator()
        person.age = 1
        var elements: [Heard] = []
        for _ in expected.indices {
            guard let change = await iterator.next() else { break }
            elements.append(Heard(change))
        }
        #expect(elements == expected, "options \(options)")
    }
}
