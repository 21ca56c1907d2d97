import ObservableCore
import Testing

/// Equal by its name, not by identity: `.distinct` compares it with `==`.
@KeyValueObservable
private final class Tag {
    var name: String
    var color = "red"
    init(_ name: String) { self.name = name }
}

extension Tag: Equatable {
    static func == (lhs: Tag, rhs: Tag) -> Bool { lhs.name == rhs.name }
}

/// Neither `Equatable` nor a class: `.distinct` cannot compare it, so delivers every change.
private struct Uncomparable {
    var value: Int
}

@KeyValueObservable
private final class Board {
    var title = "a"
    var tag = Tag("t")
    var owner: Address?
    var members: [Address] = []
    var opaque = Uncomparable(value: 0)
    var scores: [Int] = []
}

@Suite("The .distinct option: one observation skips equal values")
struct DistinctOptionTests {
    @Test("a token skips a set of an equal value; another observation of the property still hears it")
    func token() {
        let board = Board()
        var distinct: [Seen<String>] = []
        var every: [Seen<String>] = []
        let tokens = [
            board.observe(\.title, options: [.old, .new, .distinct]) { _, change in distinct.append(.from(change)) },
            board.observe(\.title) { _, change in every.append(.from(change)) },
        ]
        board.title = "a"
        board.title = "b"
        board.title = "b"
        board.title = "a"
        #expect(
            distinct == [Seen(phase: "post", old: "a", new: "b"), Seen(phase: "post", old: "b", new: "a")])
        #expect(every.count == 4)
        withExtendedLifetime(tokens) {}
    }

    @Test("without .old or .new the comparison still happens; the change carries no values")
    func withoutValues() {
        let board = Board()
        var changes: [Seen<String>] = []
        let token = board.observe(\.title, options: [.distinct]) { _, change in changes.append(.from(change)) }
        board.title = "a"
        board.title = "b"
        board.title = "b"
        #expect(changes == [Seen(phase: "post", old: nil, new: nil)])
        withExtendedLifetime(token) {}
    }

    @Test("with .prior, the notification before the store is sent for every set, the change only for a new value")
    func prior() {
        let board = Board()
        var changes: [Seen<String>] = []
        let token = board.observe(\.title, options: [.old, .new, .prior, .distinct]) { _, change in
            changes.append(.from(change))
        }
        board.title = "a"
        board.title = "b"
        #expect(
            changes == [
                Seen(phase: "prior", old: "a", new: nil), Seen(phase: "prior", old: "a", new: nil),
                Seen(phase: "post", old: "a", new: "b"),
            ])
        withExtendedLifetime(token) {}
    }

    @Test(".initial is delivered as ever")
    func initial() {
        let board = Board()
        var changes: [Seen<String>] = []
        let token = board.observe(\.title, options: [.initial, .new, .distinct]) { _, change in
            changes.append(.from(change))
        }
        board.title = "a"
        #expect(changes == [Seen(phase: "post", old: nil, new: "a")])
        withExtendedLifetime(token) {}
    }

    @Test("objects by ==, when Equatable, else by identity; optionals and arrays of objects element by element")
    func comparisons() {
        let board = Board()
        let oslo = Address(city: "Oslo")
        var tags = 0
        var owners = 0
        var members = 0
        let tokens = [
            board.observe(\.tag, options: [.distinct]) { _, _ in tags += 1 },
            board.observe(\.owner, options: [.distinct]) { _, _ in owners += 1 },
            board.observe(\.members, options: [.distinct]) { _, _ in members += 1 },
        ]
        board.tag = Tag("t")  // another object, equal: skipped
        board.tag = Tag("u")  // 1
        board.owner = nil  // skipped
        board.owner = oslo  // 1
        board.owner = oslo  // skipped
        board.owner = Address(city: "Oslo")  // 2: another object, not Equatable
        board.members = []  // skipped
        board.members = [oslo]  // 1
        board.members = [oslo]  // skipped: the same objects
        board.members.append(oslo)  // 2: an insertion
        board.members = [oslo, Address(city: "Oslo")]  // 3
        #expect((tags, owners, members) == (1, 2, 3))
        withExtendedLifetime(tokens) {}
    }

    @Test("a value that cannot be compared is always delivered")
    func uncomparable() {
        let board = Board()
        var calls = 0
        let token = board.observe(\.opaque, options: [.distinct]) { _, _ in calls += 1 }
        board.opaque = Uncomparable(value: 0)
        board.opaque.value = 0
        #expect(calls == 2)
        withExtendedLifetime(token) {}
    }

    @Test("an in-place mutation that leaves the collection equal is skipped; one that changes it keeps its kind")
    func collections() {
        let board = Board()
        board.scores = [1, 2]
        var changes: [(ObservedChangeKind, [Int]?)] = []
        let token = board.observe(\.scores, options: [.new, .distinct]) { _, change in
            changes.append((change.kind, change.newValue))
        }
        board.scores[0] = 1
        board.scores.append(3)
        #expect(changes.map(\.0) == [.insertion])
        #expect(changes.map(\.1) == [[1, 2, 3]])
        withExtendedLifetime(token) {}
    }

    @Test("a nested path skips a replaced intermediate with an equal leaf, and still moves to it")
    func nestedPath() {
        let person = Person()
        // Two observations of the same path: both hear the same changes, and only those.
        var first: [Seen<String?>] = []
        var second: [Seen<String?>] = []
        let tokens = [
            person.observe(\.address?.city, options: [.old, .new, .distinct]) { _, change in
                first.append(.from(change))
            },
            person.observe(\.address?.city, options: [.old, .new, .distinct]) { _, change in
                second.append(.from(change))
            },
        ]
        let oslo = Address(city: "Oslo")
        person.address = oslo
        let other = Address(city: "Oslo")
        person.address = other  // the same city: skipped, but the path now reads `other`
        oslo.city = "Rome"  // not on the path any more
        other.city = "Oslo"  // equal: skipped
        other.city = "Bergen"
        let expected = [
            Seen<String?>(phase: "post", old: .some(nil), new: "Oslo"), Seen(phase: "post", old: "Oslo", new: "Bergen"),
        ]
        #expect(first == expected)
        #expect(second == expected)
        withExtendedLifetime(tokens) {}
    }

    @Test("a string key path, direct and nested")
    func stringKeyPaths() throws {
        let person = Person()
        var names: [String] = []
        var cities: [String] = []
        let tokens = [
            try person.observe(keyPath: "name", options: [.new, .distinct]) { _, change in
                names.append(change.newValue(as: String.self) ?? "nil")
            },
            try person.observe(keyPath: "address.city", options: [.new, .distinct]) { _, change in
                cities.append(change.newValue(as: String.self) ?? "nil")
            },
        ]
        person.name = ""
        person.name = "Ann"
        person.name = "Ann"
        person.address = Address(city: "Oslo")
        person.address = Address(city: "Oslo")
        person.address?.city = "Bergen"
        #expect(names == ["Ann"])
        #expect(cities == ["Oslo", "Bergen"])
        withExtendedLifetime(tokens) {}
    }

    @Test("a controller's observation")
    func controller() {
        let view = ProfileView()
        let person = Person(name: "Ann")
        var seen: [Seen<String>] = []
        view.observations.observe(person, \.name, options: [.old, .new, .distinct]) { _, _, change in
            seen.append(.from(change))
        }
        person.name = "Ann"
        person.name = "Bo"
        person.name = "Bo"
        #expect(seen == [Seen(phase: "post", old: "Ann", new: "Bo")])
    }

    @Test("a whole object: each property's equal sets are skipped")
    func wholeObject() {
        let board = Board()
        var seen: [SeenProperty] = []
        let token = board.observeProperties(options: [.old, .new, .distinct]) { _, change in
            seen.append(SeenProperty(change))
        }
        board.title = "a"
        board.scores = []
        board.title = "b"
        board.scores.append(1)
        board.opaque = Uncomparable(value: 0)
        #expect(seen.map(\.name) == ["title", "scores", "opaque"])
        #expect(seen.first == SeenProperty("title", old: "a", new: "b"))
        withExtendedLifetime(token) {}
    }

    @Test("a graph skips an equal replacement, yet follows the new object")
    func graph() {
        let board = Board()
        let first = board.tag
        var seen: [String] = []
        let token = board.observeProperties(options: [.old, .new, .distinct], deep: true) { _, change in
            seen.append(change.path)
        }
        let second = Tag("t")
        board.tag = second  // equal by ==: skipped, but the graph now holds `second`
        first.color = "blue"  // left the graph
        second.color = "red"  // equal: skipped
        second.color = "green"
        board.title = "a"  // equal: skipped
        #expect(seen == ["tag.color"])
        withExtendedLifetime(token) {}
    }

    @Test("a sequence of changes")
    func sequence() async {
        let person = Person(name: "Ann")
        var iterator = person.changes(of: \.name, options: [.new, .distinct]).makeAsyncIterator()
        person.name = "Ann"
        person.name = "Bo"
        person.name = "Bo"
        person.name = "Cy"
        let first = await iterator.next()
        let second = await iterator.next()
        #expect([first?.newValue, second?.newValue] == ["Bo", "Cy"])
    }

    @Test("an observation delivered on an actor")
    @MainActor
    func actor() {
        let person = Person(name: "Ann")
        var names: [String] = []
        let token = person.observe(\.name, options: [.new, .distinct], isolation: MainActor.shared) { change in
            names.append(change.newValue!)
        }
        person.name = "Ann"
        person.name = "Bo"
        person.name = "Bo"
        #expect(names == ["Bo"])
        withExtendedLifetime(token) {}
    }

    @Test("the option's description")
    func description() {
        #expect(ObservationOptions([.new, .distinct]).description == "[.new, .distinct]")
    }
}
