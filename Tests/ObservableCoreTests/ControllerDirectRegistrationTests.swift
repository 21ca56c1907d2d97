import Testing

@testable import ObservableCore

/// The entries of the list of `person`'s property `name`, as the property's setter reaches them.
private func entries(of person: Person, _ name: String) -> [ListEntry] {
    guard let listed = ListedProperties.of(Person.self), let property = listed.property(name) else {
        Issue.record("no slot for \(name)")
        return []
    }
    let offset = listed.slotOffset(of: property, in: person)
    return ListSlot.at(offset, in: person).pointee.existingObservers()?.entries(of: ListEntry.self) ?? []
}

/// Makes `\.age` and `\.name` known on `Person` as one property each, so that a controller's next
/// registration of them is its own observation (the first registration on a class resolves the
/// key path and carries a separate observation).
private func learnSlots() {
    let person = Person()
    person.observe(\.age) { _, _ in }.cancel()
    person.observe(\.name) { _, _ in }.cancel()
}

@Suite("A controller's registration of one property is itself the observation in the property's list")
struct ControllerDirectRegistrationTests {
    @Test("it is the one entry of the list while observed, and the list is empty once unobserved")
    func ownEntry() {
        learnSlots()
        let view = ProfileView()
        let person = Person()
        weak var weakCanary: Canary?
        var seen: [Seen<Int>] = []
        do {
            let canary = Canary()
            weakCanary = canary
            view.observations.observe(person, \.age) { _, _, change in
                withExtendedLifetime(canary) { seen.append(.from(change)) }
            }
        }
        do {
            let listed = entries(of: person, "age")
            #expect(listed.count == 1)
            #expect(listed.first is ControllerRegistration)
            #expect(listed.first?.options == [.old, .new])
        }
        #expect(view.observations.isObserving(person, \.age))
        person.age = 3
        view.observations.unobserve(person, \.age)
        person.age = 4
        #expect(seen == [Seen(phase: "post", old: 0, new: 3)])
        #expect(entries(of: person, "age").isEmpty)
        #expect(weakCanary == nil)
        #expect(!view.observations.isObserving(person, \.age))
    }

    @Test(
        "a controller delivers what a token delivers, with every option set, on random sets and re-observations",
        arguments: [1, 2, 3] as [UInt64])
    func twins(seed: UInt64) {
        learnSlots()
        var random = SeededGenerator(seed: seed)
        for raw in 0..<UInt8(16) {
            let options = ObservationOptions(rawValue: raw)
            let view = ProfileView()
            let person = Person(name: "Ann")
            var byController: [String] = []
            var byToken: [String] = []
            func observe() -> [ObservationToken] {
                view.observations.observe(person, \.age, options: options) { observer, object, change in
                    #expect(observer === view && object === person)
                    byController.append("age \(Seen.from(change))")
                }
                view.observations.observe(person, \.name, options: options) { _, _, change in
                    byController.append("name \(Seen.from(change))")
                }
                return [
                    person.observe(\.age, options: options) { _, change in byToken.append("age \(Seen.from(change))") },
                    person.observe(\.name, options: options) { _, change in
                        byToken.append("name \(Seen.from(change))")
                    },
                ]
            }
            var tokens = observe()
            for _ in 0..<40 {
                switch Int.random(in: 0..<6, using: &random) {
                case 0, 1: person.age = Int.random(in: -2...2, using: &random)
                case 2: person.age += 1
                case 3: person.name = ["Ann", "Bo", ""].randomElement(using: &random)!
                case 4: person.name.append("!")
                default:
                    // Observing the same pair again replaces the controller's observation.
                    for token in tokens { token.cancel() }
                    tokens = observe()
                }
            }
            #expect(byController == byToken, "options \(options)")
            #expect(byController.count >= (options.contains(.initial) ? 2 : 0))
            // Replacements left one entry per property.
            #expect(entries(of: person, "age").count == 2)
            #expect(entries(of: person, "name").count == 2)
            view.observations.unobserveAll()
            for token in tokens { token.cancel() }
            #expect(entries(of: person, "age").isEmpty && entries(of: person, "name").isEmpty)
        }
    }

    @Test("not retained: the object's end ends it, the observer is told once, what the handler held goes")
    func observedObjectDies() {
        learnSlots()
        let deaths = Recorder<ObjectIdentifier>()
        let view = ProfileView()
        let controller = ObservationController(observer: view, retainsObserved: false) { _, object in
            deaths.append(object)
        }
        weak var weakPerson: Person?
        weak var weakCanary: Canary?
        var expected: ObjectIdentifier?
        var ages: [Int?] = []
        do {
            let person = Person()
            let canary = Canary()
            weakPerson = person
            weakCanary = canary
            expected = ObjectIdentifier(person)
            controller.observe(person, \.age, options: [.new]) { _, _, change in
                withExtendedLifetime(canary) { ages.append(change.newValue) }
            }
            controller.observe(person, \.name) { _, _, _ in }
            #expect(entries(of: person, "age").first is ControllerRegistration)
            person.age = 1
        }
        #expect(weakPerson == nil)
        #expect(weakCanary == nil)
        #expect(deaths.all == [expected!])
        #expect(ages == [1])
        #expect(controller.observedObjects.isEmpty)
    }
}
