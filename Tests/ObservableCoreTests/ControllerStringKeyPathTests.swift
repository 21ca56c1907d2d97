import ObservableCore
import Testing

/// An observer of string key paths, KVOController style.
private final class CityView {
    lazy var observations = ObservationController(observer: self)
    var log: [String] = []

    func cityDidChange(_ person: Person, _ change: KeyedChange) {
        log.append("action \(change.keyPath) \(change.newValue.map { "\($0)" } ?? "nil")")
    }
}

/// `keyPath old -> new`, values as their descriptions.
private func line(_ change: KeyedChange) -> String {
    "\(change.keyPath) \(change.oldValue.map { "\($0)" } ?? "nil") -> \(change.newValue.map { "\($0)" } ?? "nil")"
}

@Suite("ObservationController with string key paths")
struct ControllerStringKeyPathTests {
    @Test("a nested string path: the observer and object passed, the leaf, a replaced intermediate, nil")
    func nestedPath() throws {
        let view = CityView()
        let person = Person(name: "Ann")
        let oslo = Address(city: "Oslo")
        person.address = oslo
        var objects: [ObjectIdentifier] = []
        try view.observations.observe(person, keyPath: "address.city", options: [.initial, .old, .new]) {
            view, object, change in
            view.log.append(line(change))
            objects.append(ObjectIdentifier(object))
        }
        oslo.city = "Bergen"
        let rome = Address(city: "Rome")
        person.address = rome
        oslo.city = "not on the path any more"
        person.address = nil
        #expect(
            view.log == [
                "address.city nil -> Oslo", "address.city Oslo -> Bergen", "address.city Bergen -> Rome",
                "address.city Rome -> nil",
            ])
        #expect(objects == Array(repeating: ObjectIdentifier(person), count: 4))
        #expect(view.observations.isObserving(person, keyPath: "address.city"))
    }

    @Test("an invalid path throws with the offending key, and nothing is observed")
    func invalidPath() {
        let view = CityView()
        let person = Person()
        #expect(
            throws: StringKeyPathError(reason: .unknownKey, key: "adress", typeName: "Person", path: "adress.city")
        ) {
            try view.observations.observe(person, keyPath: "adress.city") { view, _, _ in view.log.append("heard") }
        }
        #expect(throws: StringKeyPathError(reason: .unknownKey, key: "scratch", typeName: "Person", path: "scratch")) {
            try view.observations.observe(person, keyPath: "scratch") { view, _, _ in view.log.append("heard") }
        }
        person.name = "Bo"
        #expect(view.log.isEmpty)
        #expect(view.observations.observedObjects.isEmpty)
        #expect(!view.observations.isObserving(person, keyPath: "name"))
    }

    @Test("several string paths with one handler, in the order of the changes")
    func severalPaths() throws {
        let view = CityView()
        let person = Person(name: "Ann")
        for keyPath in ["name", "age", "address.city"] {
            try view.observations.observe(person, keyPath: keyPath, options: [.new]) { view, _, change in
                view.log.append(line(change))
            }
        }
        person.age = 3
        person.address = Address(city: "Oslo")
        person.name = "Bo"
        #expect(view.log == ["age nil -> 3", "address.city nil -> Oslo", "name nil -> Bo"])
    }

    @Test("the action form calls the observer's method")
    func action() throws {
        let view = CityView()
        let person = Person()
        person.address = Address(city: "Oslo")
        try view.observations.observe(person, keyPath: "address.city", action: CityView.cityDidChange)
        person.address?.city = "Rome"
        #expect(view.log == ["action address.city Rome"])
    }

    @Test("a string and a typed key path are two observations; unobserve and isObserving take either")
    func stringAndTypedAreDistinct() throws {
        let view = CityView()
        let person = Person(name: "Ann")
        view.observations.observe(person, \.name, options: [.new]) { view, _, change in
            view.log.append("typed \(change.newValue!)")
        }
        try view.observations.observe(person, keyPath: "name", options: [.new]) { view, _, change in
            view.log.append("string \(change.newValue.map { "\($0)" } ?? "nil")")
        }
        person.name = "Bo"
        #expect(view.log == ["typed Bo", "string Bo"])
        view.observations.unobserve(person, keyPath: "name")
        #expect(!view.observations.isObserving(person, keyPath: "name"))
        #expect(view.observations.isObserving(person, \.name))
        person.name = "Cy"
        #expect(view.log == ["typed Bo", "string Bo", "typed Cy"])
        view.observations.unobserve(person, keyPath: "never observed")
        view.observations.unobserve(person, \.name)
        #expect(view.observations.observedObjects.isEmpty)
    }

    @Test("observing the same string again replaces the observation: the latest handler and options win")
    func replaced() throws {
        let view = CityView()
        let person = Person(name: "Ann")
        try view.observations.observe(person, keyPath: "name") { view, _, _ in view.log.append("first") }
        try view.observations.observe(person, keyPath: "name", options: [.initial, .new]) { view, _, change in
            view.log.append(line(change))
        }
        person.name = "Bo"
        #expect(view.log == ["name nil -> Ann", "name nil -> Bo"])
    }

    @Test("a non-retaining controller: the observed object's end is reported once and its entry goes")
    func observedDeallocated() throws {
        let view = CityView()
        let ended = Recorder<ObjectIdentifier>()
        let controller = ObservationController(observer: view, retainsObserved: false) { _, id in ended.append(id) }
        weak var released: Person?
        var identities: [ObjectIdentifier] = []
        do {
            let person = Person(name: "Ann")
            released = person
            identities.append(ObjectIdentifier(person))
            for keyPath in ["name", "address.city"] {
                try controller.observe(person, keyPath: keyPath) { view, _, change in view.log.append(line(change)) }
            }
            person.name = "Bo"
        }
        #expect(released == nil)
        #expect(view.log == ["name Ann -> Bo"])
        #expect(ended.all == identities)
        #expect(controller.observedObjects.isEmpty)
    }

    @Test("the controller's description lists a string path as written, a path as one, a property not")
    func listed() throws {
        let view = CityView()
        let person = Person()
        try view.observations.observe(person, keyPath: "address.city", options: [.new]) { _, _, _ in }
        try view.observations.observe(person, keyPath: "name", options: [.new]) { _, _, _ in }
        let name = "\(type(of: person)) \(Unmanaged.passUnretained(person).toOpaque())"
        #expect(
            String(reflecting: view.observations) == """
                ObservationController<CityView> of CityView \(Unmanaged.passUnretained(view).toOpaque()), \
                retaining: 2 live observations
                  \(name): "address.city" [.new] controller, path
                  \(name): "name" [.new] controller
                """)
        // The object's own listing says the same of each.
        #expect(person.observationsDescription.contains("\"name\" [.new] controller\n"))
        #expect(person.observationsDescription.contains("\"address.city\" [.new] controller, path"))
    }
}
