import ObservableCore
import Testing

@Suite("Nested key paths")
struct NestedPathTests {
    @Test("a leaf change notifies with the path's old and new values")
    func leafChange() {
        let person = Person()
        person.address = Address(city: "Oslo")
        var seen: [Seen<String?>] = []
        let token = person.observe(\.address?.city) { _, change in seen.append(.from(change)) }
        person.address?.city = "Bergen"
        #expect(seen == [Seen(phase: "post", old: "Oslo", new: "Bergen")])
        withExtendedLifetime(token) {}
    }

    @Test("replacing the intermediate notifies, moves the observation, and the old one falls silent")
    func rewiring() {
        let person = Person()
        let first = Address(city: "Oslo")
        let second = Address(city: "Rome")
        person.address = first
        var seen: [Seen<String?>] = []
        let token = person.observe(\.address?.city, options: [.initial, .old, .new]) { _, change in
            seen.append(.from(change))
        }
        person.address = second
        first.city = "ignored: no longer on the path"
        second.city = "Milan"
        #expect(
            seen == [
                Seen(phase: "post", old: nil, new: "Oslo"),  // .initial carries no old value
                Seen(phase: "post", old: "Oslo", new: "Rome"),  // the intermediate was replaced
                Seen(phase: "post", old: "Rome", new: "Milan"),  // the new intermediate notifies
            ])
        withExtendedLifetime(token) {}
    }

    @Test("a nil intermediate yields nil, and the path is rewired when it comes back")
    func nilIntermediate() {
        let person = Person()
        var seen: [Seen<String?>] = []
        let token = person.observe(\.address?.city, options: [.initial, .old, .new]) { _, change in
            seen.append(.from(change))
        }
        let address = Address(city: "Oslo")
        person.address = address
        address.city = "Bergen"
        person.address = nil
        address.city = "ignored: detached"
        #expect(
            seen == [
                Seen(phase: "post", old: nil, new: .some(nil)),
                Seen(phase: "post", old: .some(nil), new: "Oslo"),
                Seen(phase: "post", old: "Oslo", new: "Bergen"),
                Seen(phase: "post", old: "Bergen", new: .some(nil)),
            ])
        withExtendedLifetime(token) {}
    }

    @Test("the prior notification of a path carries the old path value")
    func priorOnPath() {
        let person = Person()
        person.address = Address(city: "Oslo")
        var seen: [Seen<String?>] = []
        let token = person.observe(\.address?.city, options: [.prior, .old, .new]) { _, change in
            seen.append(.from(change))
        }
        person.address?.city = "Bergen"
        person.address = Address(city: "Rome")
        #expect(
            seen == [
                Seen(phase: "prior", old: "Oslo", new: nil),
                Seen(phase: "post", old: "Oslo", new: "Bergen"),
                Seen(phase: "prior", old: "Bergen", new: nil),
                Seen(phase: "post", old: "Bergen", new: "Rome"),
            ])
        withExtendedLifetime(token) {}
    }

    @Test("three levels: every intermediate is a trigger and moves the observation")
    func threeLevels() {
        let ann = Person(name: "Ann")
        let bob = Person(name: "Bob")
        let cid = Person(name: "Cid")
        bob.address = Address(city: "Oslo")
        cid.address = Address(city: "Rome")
        ann.friend = bob
        var cities: [String?] = []
        let token = ann.observe(\.friend?.address?.city, options: [.new]) { _, change in cities.append(change.newValue!)
        }
        bob.address?.city = "Bergen"
        ann.friend = cid
        bob.address?.city = "ignored"
        cid.address?.city = "Milan"
        cid.address = nil
        #expect(cities == ["Bergen", "Rome", "Milan", nil])
        withExtendedLifetime((token, bob, cid)) {}
    }

    @Test("a computed property is observed through the @Observed properties it reads")
    func computedDependencies() {
        let person = Person(name: "Ann")
        var summaries: [String] = []
        let token = person.observe(\.summary, options: [.new]) { _, change in summaries.append(change.newValue!) }
        person.age = 30
        person.name = "Anna"
        person.scratch = 1  // not @Observed: not a trigger
        #expect(summaries == ["Ann (30)", "Anna (30)"])
        withExtendedLifetime(token) {}
    }

    @Test("a value derived from a property (\\.name.count) is not mistaken for the property itself")
    func derivedValue() {
        let person = Person(name: "Ann")
        var counts: [Seen<Int>] = []
        let token = person.observe(\.name.count) { _, change in counts.append(.from(change)) }
        person.name = "Annabel"
        #expect(counts == [Seen(phase: "post", old: 3, new: 7)])
        withExtendedLifetime(token) {}
    }

    @Test("a path through no @Observed property can never fire: its token is inactive at once")
    func noTrigger() {
        let person = Person()
        var calls = 0
        let token = person.observe(\.scratch, options: [.initial, .new]) { _, _ in calls += 1 }
        person.scratch = 5
        #expect(calls == 1)  // only .initial
        #expect(token.isActive == false)
    }

    @Test("a path observation's keyPath is the observed path")
    func changeKeyPath() {
        let person = Person()
        person.address = Address()
        var keyPaths: [AnyKeyPath] = []
        let token = person.observe(\.address?.city) { _, change in keyPaths.append(change.keyPath) }
        person.address?.city = "x"
        #expect(keyPaths == [\Person.address?.city])
        withExtendedLifetime(token) {}
    }

    @Test("the handler is given the root, whether the path starts at the root's property or another object's")
    func handlerRoot() {
        // `\.address?.city` first reads the root's own `address` (its changes come with the root in
        // hand); `\.personName` first reads another object's (the directory's `person`): its changes
        // are delivered with the root all the same.
        let person = Person(name: "Ann")
        person.address = Address(city: "Oslo")
        let other = Person(name: "Bo")
        let directory = Directory(person: other)
        let reader = DirectoryReader(directory: directory)
        var roots: [ObjectIdentifier] = []
        let nested = person.observe(\.address?.city) { root, _ in roots.append(ObjectIdentifier(root)) }
        let shared = reader.observe(\.personName) { root, _ in roots.append(ObjectIdentifier(root)) }
        person.address = Address(city: "Rome")
        person.address?.city = "Milan"
        directory.person = Person(name: "Cy")
        directory.person.name = "Di"
        #expect(
            roots == [
                ObjectIdentifier(person), ObjectIdentifier(person), ObjectIdentifier(reader), ObjectIdentifier(reader),
            ])
        withExtendedLifetime((nested, shared)) {}
    }
}

/// A directory of one person, read by `DirectoryReader`.
private final class Directory: KeyValueObservable {
    @Observed var person: Person
    init(person: Person) { self.person = person }
}

/// Reads another object's properties only: a path from it starts in the directory's list.
private final class DirectoryReader: KeyValueObservable {
    let directory: Directory
    @Observed var unused = 0
    var personName: String { directory.person.name }
    init(directory: Directory) { self.directory = directory }
}
