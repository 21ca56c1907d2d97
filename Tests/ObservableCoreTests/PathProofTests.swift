import Testing

@testable import ObservableCore

private final class Company: KeyValueObservable {
    @Observed var boss = Person()
    @Observed var office: Address?
}

/// A path proven to be pure navigation through `@Observed` properties gets changes of its last
/// property from the setter's values, without evaluating the path (see `PathProof`).
@Suite("Paths proven to end in a property")
struct PathProofTests {
    /// The proof for `keyPath` as it reads now on `root`.
    private func proof<Root: AnyObject, Value>(_ root: Root, _ keyPath: KeyPath<Root, Value>) -> LeafConversion? {
        let (_, accesses) = Tracking.evaluate(root, keyPath)
        return PathProof.proof(of: keyPath, root: root, accesses: accesses, valueType: Value.self)?.leaf
    }

    @Test("pure navigation is proven: a chain of properties, optional or not")
    func proven() throws {
        let person = Person()
        let bob = Person(name: "Bob")
        person.address = Address(city: "Oslo")
        person.friend = bob  // weak
        let company = Company()
        company.office = Address()
        // Through an optional: the path's value is the property's, made optional.
        #expect(try #require(proof(person, \.address?.city)).wrap != nil)
        #expect(try #require(proof(company, \.office?.street)).wrap != nil)
        #expect(try #require(proof(person, \.friend?.name)).wrap != nil)
        // No optional on the way: the path's value is the property's.
        #expect(try #require(proof(company, \.boss.name)).wrap == nil)
        #expect(try #require(proof(company, \.boss.address)).wrap == nil)
        withExtendedLifetime(bob) {}
    }

    @Test("anything else is not proven, and is evaluated as before")
    func notProven() {
        let ann = Person(name: "Ann")
        let bob = Person(name: "Bob")
        ann.address = Address(city: "Oslo")
        bob.address = Address(city: "Rome")
        ann.friend = bob
        #expect(proof(ann, \.summary) == nil)  // a computed property of the user's
        #expect(proof(ann, \.name.count) == nil)  // a component after the property
        #expect(proof(ann, \.address?.city.count) == nil)
        #expect(proof(ann, \.address!.city) == nil)  // a force unwrap
        #expect(proof(ann, \.friend?.address?.city) == nil)  // optionals flattened by a second chain
        #expect(proof(ann, \.friend?.address) == nil)  // an optional last property after a chain
        let student = Student(name: "Cid")
        #expect(proof(student, \.name) == nil)  // an instance of a subclass of the property's class
        let panel = MeterPanel()
        panel.meter = DoubledMeter()
        #expect(proof(panel, \.meter?.level) == nil)  // … which may override it
        ann.address = nil
        #expect(proof(ann, \.address?.city) == nil)  // the path stopped at a nil intermediate
    }

    @Test("a subclass overriding the property with its own getter is observed through that getter")
    func overridingGetter() {
        let panel = MeterPanel()
        let meter = DoubledMeter()
        panel.meter = meter
        var seen: [Seen<Int?>] = []
        let token = panel.observe(\.meter?.level) { _, change in seen.append(.from(change)) }
        meter.level = 10  // stores 5; the path reads 10
        #expect(seen == [Seen(phase: "post", old: 0, new: 10)])
        // The same path on the base class is proven, and delivers the stored values.
        let plain = OverridableMeter()
        panel.meter = plain
        seen.removeAll()
        plain.level = 3
        #expect(seen == [Seen(phase: "post", old: 0, new: 3)])
        withExtendedLifetime(token) {}
    }

    @Test("a proven path delivers only what its options ask for")
    func optionsOnProvenPath() {
        let person = Person()
        person.address = Address(city: "Oslo")
        var newOnly: [Seen<String?>] = []
        var oldOnly: [Seen<String?>] = []
        let tokens = [
            person.observe(\.address?.city, options: [.new]) { _, change in newOnly.append(.from(change)) },
            person.observe(\.address?.city, options: [.old]) { _, change in oldOnly.append(.from(change)) },
        ]
        person.address?.city = "Bergen"
        #expect(newOnly == [Seen(phase: "post", old: nil, new: "Bergen")])
        #expect(oldOnly == [Seen(phase: "post", old: "Oslo", new: nil)])
        withExtendedLifetime(tokens) {}
    }

    @Test("a root deallocated while the last object lives: its changes are silent, the token inactive")
    func rootDeallocated() {
        let address = Address(city: "Oslo")
        var person: Person? = Person()
        person?.address = address
        var calls = 0
        let token = person!.observe(\.address?.city) { _, _ in calls += 1 }
        address.city = "Bergen"
        #expect(calls == 1)
        weak let released = person
        person = nil
        #expect(released == nil)
        address.city = "Rome"
        #expect(calls == 1)
        #expect(!token.isActive)
    }

    @Test("cancelling inside a leaf callback stops the next ones")
    func cancelInsideLeafCallback() {
        let person = Person()
        person.address = Address(city: "Oslo")
        var calls = 0
        var token: ObservationToken?
        token = person.observe(\.address?.city) { _, _ in
            calls += 1
            token?.cancel()
        }
        person.address?.city = "Bergen"
        person.address?.city = "Rome"
        #expect(calls == 1)
        #expect(token?.isActive == false)
    }
}
