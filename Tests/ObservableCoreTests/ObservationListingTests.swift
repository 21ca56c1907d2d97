import ObservableCore
import Testing

/// The name the descriptions give an object: its class and address.
private func named(_ object: AnyObject) -> String {
    "\(type(of: object)) \(Unmanaged.passUnretained(object).toOpaque())"
}

/// An observer for the controller's description.
private final class Inspector {}

@Suite("What observes this object: observationsDescription and the controller's debugDescription")
struct ObservationListingTests {
    @Test("an object lists its live observations: key path, options, what made them, what a path reads")
    func objectListing() {
        let person = Person()
        person.address = Address(city: "Oslo")
        #expect(person.observationsDescription == "\(named(person)): no live observations")
        let inspector = Inspector()
        let controller = ObservationController(observer: inspector)
        let name = person.observe(\.name) { _, _ in }
        let summary = person.observe(\.summary, options: [.initial, .new]) { _, _ in }
        controller.observe(person, \.age, options: [.new, .prior]) { _, _, _ in }
        let iterator = person.changes(of: \.age).makeAsyncIterator()
        let city = person.observe(\.address?.city, options: [.old, .new]) { _, _ in }
        let cityPath = String(describing: \Person.address?.city)
        let summaryPath = String(describing: \Person.summary)
        #expect(
            person.observationsDescription == """
                \(named(person)): 5 live observations
                  \\Person.name [.old, .new] token
                  \(summaryPath) [.initial, .new] token, path; reads name, age
                  \\Person.age [.new, .prior] controller
                  \\Person.age [.new] sequence
                  \(cityPath) [.old, .new] token, path; reads address
                """)
        name.cancel()
        controller.unobserveAll()
        summary.cancel()
        #expect(
            person.observationsDescription == """
                \(named(person)): 2 live observations
                  \\Person.age [.new] sequence
                  \(cityPath) [.old, .new] token, path; reads address
                """)
        withExtendedLifetime((city, iterator)) {}
    }

    @Test("a path rooted elsewhere is listed on each object it reads, with its root")
    func pathFromAnotherRoot() {
        let person = Person()
        let address = Address(city: "Oslo")
        person.address = address
        let token = person.observe(\.address?.city, options: [.new]) { _, _ in }
        #expect(
            address.observationsDescription == """
                \(named(address)): 1 live observation
                  \(String(describing: \Person.address?.city)) [.new] token, path from \(named(person)); reads city
                """)
        person.address = Address(city: "Rome")  // the path moves off the first address
        #expect(address.observationsDescription == "\(named(address)): no live observations")
        withExtendedLifetime(token) {}
    }

    @Test("a controller lists its observer and its live observations, by object")
    func controllerListing() {
        let inspector = Inspector()
        let controller = ObservationController(observer: inspector)
        let ann = Person(name: "Ann")
        let address = Address(city: "Oslo")
        #expect(
            String(reflecting: controller)
                == "ObservationController<Inspector> of \(named(inspector)), retaining: no live observations")
        controller.observe(ann, \.name) { _, _, _ in }
        controller.observe(ann, \.age, options: [.initial, .new]) { _, _, _ in }
        controller.observe(address, \.city) { _, _, _ in }
        #expect(
            String(reflecting: controller) == """
                ObservationController<Inspector> of \(named(inspector)), retaining: 3 live observations
                  \(named(ann)): \\Person.age [.initial, .new] controller
                  \(named(ann)): \\Person.name [.old, .new] controller
                  \(named(address)): \\Address.city [.old, .new] controller
                """)
        controller.unobserve(ann, \.name)
        controller.unobserve(address)
        #expect(
            String(reflecting: controller) == """
                ObservationController<Inspector> of \(named(inspector)), retaining: 1 live observation
                  \(named(ann)): \\Person.age [.initial, .new] controller
                """)
    }

    @Test("an observation delivered on an actor says so, and goes with its token")
    @MainActor
    func actorDelivery() {
        let person = Person()
        let token = person.observe(\.age, isolation: MainActor.shared) { _ in }
        #expect(
            person.observationsDescription == """
                \(named(person)): 1 live observation
                  \\Person.age [.old, .new] token, delivered on an actor
                """)
        token.cancel()
        #expect(person.observationsDescription == "\(named(person)): no live observations")
    }

    @Test(
        "a string key path is listed as written: one property as a direct observation, a path on each object it reads")
    func stringKeyPath() throws {
        let person = Person()
        let oslo = Address(city: "Oslo")
        person.address = oslo
        let city = try person.observe(keyPath: "address.city", options: [.new]) { _, _ in }
        let name = try person.observe(keyPath: "name") { _, _ in }
        #expect(
            person.observationsDescription == """
                \(named(person)): 2 live observations
                  "name" [.old, .new] token
                  "address.city" [.new] token, path; reads address
                """)
        #expect(
            oslo.observationsDescription == """
                \(named(oslo)): 1 live observation
                  "address.city" [.new] token, path from Person \(Unmanaged.passUnretained(person).toOpaque()); reads city
                """)
        withExtendedLifetime((city, name)) {}
    }

    @Test("options are written as in code")
    func optionsDescription() {
        #expect(ObservationOptions().description == "[]")
        #expect(ObservationOptions([.prior, .new, .initial, .old]).description == "[.initial, .old, .new, .prior]")
    }
}
