import Testing

@testable import ObservableCore

#if canImport(ObjectiveC)
import ObjectiveC
#endif

/// What a nested observation occupies: its observation within a malloc chunk of 128 bytes, its
/// token within one of 32 (BENCHMARKS.md counts the bytes; this fails as soon as a field added to
/// `PathObservation` or its bases starts a larger chunk), and one link for a path of two properties:
/// the observation is its first property's entry (`PathLinks`), for as long as the path starts there.
@Suite("Path observation layout")
struct PathObservationLayoutTests {
    /// The bytes an instance of `object`'s class asks the allocator for. (Not the chunk handed out, which may be
    /// larger than asked, depending on what ran before.) On Linux, Swift's class
    /// metadata, without Objective-C interop, holds the instance size as a 32-bit field after the
    /// kind, the superclass, the flags and the address point (docs/ABI/TypeMetadata.rst).
    private static func instanceSize(_ object: AnyObject) -> Int {
        #if canImport(ObjectiveC)
        class_getInstanceSize(type(of: object))
        #else
        let metadata = unsafeBitCast(type(of: object), to: UnsafeRawPointer.self)
        return Int(metadata.load(fromByteOffset: 24, as: UInt32.self))
        #endif
    }

    /// Ann, whose address is in Oslo.
    private static func personInOslo() -> Person {
        let person = Person(name: "Ann")
        person.address = Address(city: "Oslo")
        return person
    }

    @Test("a nested observation fits 128 bytes, its token 32")
    func nestedObservationFitsItsChunk() {
        let person = Self.personInOslo()
        var cities: [String?] = []
        let token = person.observe(\.address?.city) { _, change in cities.append(change.newValue ?? nil) }
        person.address?.city = "Bergen"
        #expect(cities == ["Bergen"])
        // A request of at most 120 bytes is a malloc chunk of 128 (glibc adds 8 and rounds to 16), one
        // of 24 a chunk of 32.
        let observation = Unmanaged<AnyObject>.fromOpaque(token.observationAddress).takeUnretainedValue()
        #expect(Self.instanceSize(observation) <= 120)
        #expect(Self.instanceSize(token) <= 24)
        token.cancel()
    }

    /// The entries of the lists `keyPath` reads from `root`, in the order it reads them.
    private static func entries<Root: AnyObject, Value>(_ root: Root, _ keyPath: KeyPath<Root, Value>) -> [[ListEntry]]
    {
        Tracking.evaluate(root, keyPath).1.map { $0.list.entries(of: ListEntry.self) }
    }

    @Test("a direct observation with the default options asks for 72 bytes, a path's links 56")
    func entryLayouts() throws {
        let person = Self.personInOslo()
        var names: [String] = []
        let direct = person.observe(\.name) { _, change in names.append(change.newValue!) }
        let observation = Unmanaged<AnyObject>.fromOpaque(direct.observationAddress).takeUnretainedValue()
        #expect(Self.instanceSize(observation) == 72)
        let grandchild = Self.personInOslo()
        let friend = Self.personInOslo()
        grandchild.friend = friend  // weak: kept alive below
        let nested = person.observe(\.address?.city) { _, _ in }
        let deep = grandchild.observe(\.friend?.address?.city) { _, _ in }
        let links =
            Self.entries(person, \.address?.city)[1] + Self.entries(grandchild, \.friend?.address?.city).flatMap { $0 }
        let pathLinks = links.filter { $0 is PathLink }
        #expect(!pathLinks.isEmpty && pathLinks.contains { $0 is LeafPathLink })
        for link in pathLinks {
            #expect(Self.instanceSize(link) == 56)
        }
        person.name = "Bo"
        #expect(names == ["Bo"])
        withExtendedLifetime((direct, nested, deep, friend)) {}
    }

    @Test("a path of two properties: the observation is the first's entry, one link the second's; it moves")
    func observationIsItsFirstEntry() {
        let person = Self.personInOslo()
        var cities: [String?] = []
        let token = person.observe(\.address?.city) { _, change in cities.append(change.newValue ?? nil) }
        let before = Self.entries(person, \.address?.city)
        #expect(before.map(\.count) == [1, 1])
        let observation = before[0].first
        #expect(observation is PathObservationBase)
        #expect((before[1].first as? LeafPathLink)?.observation === observation)

        let replaced = person.address
        person.address = Address(city: "Bergen")
        person.address?.city = "Tromsø"
        replaced?.city = "Lost"
        let after = Self.entries(person, \.address?.city)
        #expect(after[0].count == 1 && after[0].first === observation)
        #expect((after[1].first as? PathLink)?.observation === observation)
        #expect(replaced.map { Self.entries($0, \.city)[0].isEmpty } == true)
        #expect(cities == ["Bergen", "Tromsø"])

        token.cancel()
        #expect(Self.entries(person, \.address?.city).map(\.count) == [0, 0])
        person.address?.city = "Oslo"
        #expect(cities == ["Bergen", "Tromsø"])
    }

    @Test("a leaf link made while another change of the path is in flight hears willChange until it ends")
    func newLeafLinkHearsWhileInFlight() {
        let person = Self.personInOslo()
        let bergen = Address(city: "Bergen")
        var hearing: [Bool] = []
        // Registered first, so its didSet runs before the path's, while the outer change is in flight.
        let setter = person.observe(\.address, options: [.new]) { person, change in
            guard change.newValue??.city == "Oslo 2" else { return }
            person.address = bergen
            let link = Self.entries(person, \.address?.city)[1].first as? LeafPathLink
            hearing.append(link?.countsForWillChange ?? false)
        }
        var cities: [String] = []
        let token = person.observe(\.address?.city, options: [.new]) { _, change in
            cities.append((change.newValue ?? nil) ?? "nil")
        }
        person.address = Address(city: "Oslo 2")
        let link = Self.entries(person, \.address?.city)[1].first as? LeafPathLink
        #expect(hearing == [true])
        #expect(link?.countsForWillChange == false)
        #expect(cities.last == "Bergen")
        withExtendedLifetime((setter, token)) {}
    }

    @Test(
        "a path of two stored properties re-wires from the setter's values; with .prior, or a third property, it evaluates"
    )
    func rewiresFromSetter() {
        let person = Self.personInOslo()
        let friend = Self.personInOslo()
        person.friend = friend
        func rewires<Value>(_ keyPath: KeyPath<Person, Value>, _ options: ObservationOptions) -> (Bool?, [String]) {
            var heard: [String] = []
            let token = person.observe(keyPath, options: options) { _, change in
                heard.append("\(change.oldValue.map { "\($0)" } ?? "-")->\(change.newValue.map { "\($0)" } ?? "-")")
            }
            let observation = Self.entries(person, keyPath)[0].lazy.compactMap { $0 as? PathObservationBase }.first
            person.address = Address(city: "Bergen")
            friend.address = Address(city: "Bergen")
            token.cancel()
            person.address = Address(city: "Oslo")
            friend.address = Address(city: "Oslo")
            return (observation?.rewiresFromSetter, heard)
        }
        let twoProperties = rewires(\.address?.city, [.old, .new])
        #expect(twoProperties.0 == true)
        #expect(twoProperties.1 == ["Optional(\"Oslo\")->Optional(\"Bergen\")"])
        let prior = rewires(\.address?.city, [.old, .new, .prior])
        #expect(prior.0 == false)
        #expect(prior.1 == ["Optional(\"Oslo\")->-", "Optional(\"Oslo\")->Optional(\"Bergen\")"])
        let threeProperties = rewires(\.friend?.address?.city, [.old, .new])
        #expect(threeProperties.0 == false)
        #expect(threeProperties.1 == ["Optional(\"Oslo\")->Optional(\"Bergen\")"])
    }

    @Test(
        "a re-wire moves the leaf link itself when nothing else holds it; one a manual change still holds stays detached"
    )
    func leafLinkMoves() {
        let person = Self.personInOslo()
        var cities: [String] = []
        let token = person.observe(\.address?.city, options: [.old, .new]) { _, change in
            cities.append("\((change.oldValue ?? nil) ?? "nil")->\((change.newValue ?? nil) ?? "nil")")
        }
        // Weak: a strong reference here would itself keep the link from moving.
        weak let link = Self.entries(person, \.address?.city)[1].first
        person.address = Address(city: "Bergen")
        weak let moved = Self.entries(person, \.address?.city)[1].first
        #expect(link != nil && moved === link)
        // A manual change of Bergen's city holds the link (as a set in progress would) across the re-wire.
        let bergen = person.address!
        bergen.willChangeValue(for: \.city)
        person.address = Address(city: "Tromsø")
        let current = Self.entries(person, \.address?.city)[1].first.map(ObjectIdentifier.init)
        #expect(moved != nil && current != nil && moved.map(ObjectIdentifier.init) != current)
        bergen.didChangeValue(for: \.city)
        #expect(cities == ["Oslo->Bergen", "Bergen->Tromsø"])
        withExtendedLifetime(token) {}
    }

    @Test("a path that starts at another property retires the observation's entry for good")
    func firstEntryRetires() {
        let model = ReadOrder()
        var values: [String] = []
        weak var released: AnyObject?
        do {
            let token = model.observe(\.pair) { _, change in values.append(change.newValue ?? "") }
            #expect(Self.entries(model, \.pair).map { $0.map { $0 is PathObservationBase } } == [[true], [false]])
            model.aFirst = false  // not `@Observed`: the next change re-reads b first
            model.a = 1
            #expect(values == ["1,0"])
            // Both lists hold links now; the observation is in neither.
            let entries = Self.entries(model, \.pair)
            #expect(entries.map { $0.map { $0 is PathLink } } == [[true], [true]])
            released = (entries[0].first as? PathLink)?.observation
            model.aFirst = true
            model.b = 2
            #expect(values == ["1,0", "1,2"])
            #expect(Self.entries(model, \.pair).map { $0.map { $0 is PathLink } } == [[true], [true]])
            token.cancel()
            model.a = 3
            model.b = 4
            #expect(values == ["1,0", "1,2"])
            #expect(Self.entries(model, \.pair).map(\.count) == [0, 0])
        }
        #expect(released == nil)
    }
}

/// A computed property whose first read depends on a property that does not notify.
private final class ReadOrder: KeyValueObservable {
    @Observed var a = 0
    @Observed var b = 0
    var aFirst = true

    var pair: String {
        if aFirst {
            let a = a
            return "\(a),\(b)"
        }
        let b = b
        return "\(a),\(b)"
    }
}
