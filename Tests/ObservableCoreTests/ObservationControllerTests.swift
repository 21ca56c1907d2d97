import ObservableCore
import Testing

/// A view-model-style observer that owns its controller.
final class ProfileView {
    lazy var observations = ObservationController(observer: self)
    var log: [String] = []

    func nameDidChange(_ person: Person, _ change: ObservedChange<String>) {
        log.append("action \(change.newValue!)")
    }

    func personDidChange(_ person: Person, _ change: ObservedChange<Any>) {
        let name = change.keyPath == \Person.name ? "name" : change.keyPath == \Person.age ? "age" : "other"
        log.append("\(name) \(String(describing: change.oldValue!)) -> \(String(describing: change.newValue!))")
    }
}

/// An object that observes itself through its own controller.
final class SelfObserver: KeyValueObservable {
    @Observed var value = 0
    var seen: [Int] = []
    lazy var observations = ObservationController(observer: self, retainsObserved: retains)
    private let retains: Bool

    init(retains: Bool) {
        self.retains = retains
        observations.observe(self, \.value, options: [.new]) { me, _, change in me.seen.append(change.newValue!) }
    }
}

/// An observer that sets an observed property from its own deinit.
final class DeinitSetter {
    let person: Person
    var calls = 0
    lazy var observations = ObservationController(observer: self)
    init(_ person: Person) { self.person = person }
    deinit { person.age = 99 }
}

@Suite("ObservationController")
struct ObservationControllerTests {
    @Test("a block receives the observer, the object and the change")
    func blockHandler() {
        let view = ProfileView()
        let person = Person(name: "Ann")
        var received: [(ObjectIdentifier, ObjectIdentifier, Seen<String>)] = []
        view.observations.observe(person, \.name) { observer, object, change in
            received.append((ObjectIdentifier(observer), ObjectIdentifier(object), .from(change)))
        }
        person.name = "Bob"
        #expect(received.count == 1)
        #expect(received.first?.0 == ObjectIdentifier(view))
        #expect(received.first?.1 == ObjectIdentifier(person))
        #expect(received.first?.2 == Seen(phase: "post", old: "Ann", new: "Bob"))
    }

    @Test("options and their order are those of observe(_:options:_:)")
    func optionsOrder() {
        let view = ProfileView()
        let person = Person(name: "Ann")
        var seen: [Seen<String>] = []
        var observing = false
        view.observations.observe(person, \.name, options: [.initial, .prior, .old, .new]) { _, _, change in
            seen.append(.from(change, initial: !observing))
        }
        observing = true
        person.name = "Bob"
        #expect(
            seen == [
                Seen(phase: "initial", old: nil, new: "Ann"),
                Seen(phase: "prior", old: "Ann", new: nil),
                Seen(phase: "post", old: "Ann", new: "Bob"),
            ])
    }

    @Test("several key paths with one handler: change.keyPath says which changed")
    func multipleKeyPaths() {
        let view = ProfileView()
        let person = Person(name: "Ann")
        var changes: [(AnyKeyPath, String)] = []
        view.observations.observe(person, keyPaths: [\.name, \.age, \.address?.city], options: [.new]) { _, _, change in
            changes.append((change.keyPath, String(describing: change.newValue!)))
        }
        person.age = 3
        person.name = "Anna"
        person.address = Address(city: "Oslo")
        #expect(changes.map(\.0) == [\Person.age, \Person.name, \Person.address?.city])
        #expect(changes.map(\.1) == ["3", "Anna", "Optional(\"Oslo\")"])
        #expect(view.observations.isObserving(person, \Person.age))
    }

    @Test("a method of the observer as the callback (target-action)")
    func action() {
        let view = ProfileView()
        let person = Person(name: "Ann")
        view.observations.observe(person, \.name, action: ProfileView.nameDidChange)
        person.name = "Bob"
        person.name = "Cid"
        #expect(view.log == ["action Bob", "action Cid"])
    }

    @Test("a method of the observer as the callback for several key paths, each change in order")
    func actionForSeveralKeyPaths() {
        let view = ProfileView()
        let person = Person(name: "Ann")
        view.observations.observe(person, keyPaths: [\.name, \.age], action: ProfileView.personDidChange)
        person.age = 3
        person.name = "Bob"
        person.age = 4
        #expect(view.log == ["age 0 -> 3", "name Ann -> Bob", "age 3 -> 4"])
        #expect(view.observations.isObserving(person, \Person.name))
        #expect(view.observations.isObserving(person, \Person.age))
        view.observations.unobserve(person, \Person.age)
        person.age = 5
        person.name = "Cid"
        #expect(view.log == ["age 0 -> 3", "name Ann -> Bob", "age 3 -> 4", "name Bob -> Cid"])
    }

    @Test("nested key paths follow their intermediate objects")
    func nestedPath() {
        let view = ProfileView()
        let person = Person()
        var cities: [String?] = []
        view.observations.observe(person, \.address?.city, options: [.new]) { _, _, change in
            cities.append(change.newValue!)
        }
        let first = Address(city: "Oslo")
        person.address = first
        person.address = Address(city: "Rome")
        first.city = "ignored"
        person.address?.city = "Milan"
        #expect(cities == ["Oslo", "Rome", "Milan"])
    }

    @Test("unobserve(object, keyPath) ends just that observation; idempotent; unknown pairs are fine")
    func unobserveKeyPath() {
        let view = ProfileView()
        let person = Person()
        let stranger = Person()
        var log: [String] = []
        view.observations.observe(person, \.name) { _, _, change in log.append("name \(change.newValue!)") }
        view.observations.observe(person, \.age) { _, _, change in log.append("age \(change.newValue!)") }
        view.observations.unobserve(person, \.name)
        view.observations.unobserve(person, \.name)
        view.observations.unobserve(person, \.tags)
        view.observations.unobserve(stranger, \.name)
        person.name = "Ann"
        person.age = 1
        #expect(log == ["age 1"])
        #expect(!view.observations.isObserving(person, \Person.name))
        #expect(view.observations.isObserving(person, \Person.age))
    }

    @Test("unobserve(object) and unobserveAll() end everything they cover")
    func unobserveObjectAndAll() {
        let view = ProfileView()
        let ann = Person()
        let bob = Person()
        var log: [String] = []
        for (label, person) in [("ann", ann), ("bob", bob)] {
            view.observations.observe(person, keyPaths: [\.name, \.age]) { _, _, change in
                log.append("\(label) \(change.keyPath == \Person.name ? "name" : "age")")
            }
        }
        view.observations.unobserve(ann)
        view.observations.unobserve(ann)
        ann.name = "x"
        bob.name = "y"
        #expect(log == ["bob name"])
        #expect(view.observations.observedObjects.map(ObjectIdentifier.init) == [ObjectIdentifier(bob)])
        view.observations.unobserveAll()
        view.observations.unobserveAll()
        bob.age = 1
        #expect(log == ["bob name"])
        #expect(view.observations.observedObjects.isEmpty)
    }

    @Test("the same (object, key path) twice keeps one observation, and the latest handler wins")
    func deduplication() {
        let view = ProfileView()
        let person = Person()
        var log: [String] = []
        view.observations.observe(person, \.age) { _, _, _ in log.append("first") }
        view.observations.observe(person, \.age, options: [.initial, .new]) { _, _, change in
            log.append("latest \(change.newValue!)")
        }
        person.age = 1
        #expect(log == ["latest 0", "latest 1"])
    }

    @Test("the controller's deinit ends its observations")
    func controllerDeinit() {
        let person = Person()
        var calls = 0
        do {
            let view = ProfileView()
            view.observations.observe(person, \.age) { _, _, _ in calls += 1 }
            person.age = 1
        }
        person.age = 2
        #expect(calls == 1)
    }

    @Test("the observer is held weakly: it is freed while observing, and then nothing reaches it")
    func observerNotRetained() {
        let person = Person()
        weak var weakView: ProfileView?
        var calls = 0
        var controller: ObservationController<ProfileView>?
        do {
            let view = ProfileView()
            weakView = view
            controller = ObservationController(observer: view)
            controller!.observe(person, \.age) { _, _, _ in calls += 1 }
            person.age = 1
        }
        #expect(weakView == nil)
        #expect(controller?.observer == nil)
        person.age = 2
        #expect(calls == 1)
    }

    @Test("a retaining controller keeps observed objects alive until unobserved")
    func retainsObserved() {
        let view = ProfileView()
        weak var weakPerson: Person?
        do {
            let person = Person()
            weakPerson = person
            view.observations.observe(person, \.age) { _, _, _ in }
        }
        #expect(weakPerson != nil)
        view.observations.unobserve(weakPerson!)
        #expect(weakPerson == nil)
    }

    @Test(
        "the observer is told of the death of an object observed only through direct key paths, with each kind of options",
        arguments: [ObservationOptions([.old, .new]), [.new], [.initial, .prior, .new]])
    func deathToldThroughDirectObservations(options: ObservationOptions) {
        let deaths = Recorder<ObjectIdentifier>()
        let view = ProfileView()
        let controller = ObservationController(observer: view, retainsObserved: false) { _, object in
            deaths.append(object)
        }
        weak var weakPerson: Person?
        var expectedID: ObjectIdentifier?
        var heard = 0
        do {
            let person = Person()
            weakPerson = person
            expectedID = ObjectIdentifier(person)
            controller.observe(person, \.age, options: options) { _, _, _ in heard += 1 }
            controller.observe(person, \.name, options: options) { _, _, _ in heard += 1 }
            person.age = 1
        }
        #expect(heard > 0)
        #expect(weakPerson == nil)
        #expect(deaths.all == [expectedID!])
        #expect(controller.observedObjects.isEmpty)
    }

    @Test("a non-retaining controller: the observed object dies, its observations end, the observer is told once")
    func nonRetainingObservedDies() {
        let deaths = Recorder<ObjectIdentifier>()
        let view = ProfileView()
        let controller = ObservationController(observer: view, retainsObserved: false) { view, object in
            deaths.append(object)
            view.log.append("gone")
        }
        weak var weakPerson: Person?
        var expectedID: ObjectIdentifier?
        do {
            let person = Person()
            weakPerson = person
            expectedID = ObjectIdentifier(person)
            controller.observe(person, keyPaths: [\.name, \.age, \.address?.city]) { _, _, _ in }
            controller.observe(person, \.summary) { _, _, _ in }
            person.age = 1
        }
        #expect(weakPerson == nil)
        #expect(deaths.all == [expectedID!])
        #expect(view.log == ["gone"])
        #expect(controller.observedObjects.isEmpty)
        controller.unobserveAll()  // nothing left, nothing to crash on
    }

    @Test("self-observation through the object's own controller forms no cycle", arguments: [true, false])
    func selfObservation(retains: Bool) {
        weak var weakObject: SelfObserver?
        do {
            let object = SelfObserver(retains: retains)
            weakObject = object
            object.value = 1
            object.value = 2
            #expect(object.seen == [1, 2])
        }
        #expect(weakObject == nil)
    }

    @Test("unobserving from inside the .initial callback")
    func unobserveInInitial() {
        // A token first, so that `\.age` is known on Person and the registration is its own
        // observation in the property's list (`ControllerDirectRegistrationTests`).
        Person().observe(\.age) { _, _ in }.cancel()
        let view = ProfileView()
        let person = Person()
        var calls = 0
        let controller = view.observations
        controller.observe(person, \.age, options: [.initial, .new]) { _, person, _ in
            calls += 1
            controller.unobserve(person, \.age)
        }
        person.age = 1
        person.age = 2
        #expect(calls == 1)
        #expect(!controller.isObserving(person, \Person.age))
    }

    @Test("unobserving inside .initial, then setting the property there: the set is not delivered")
    func unobserveThenSetInInitial() {
        // The observation exists but the controller has not taken it over yet (that happens when
        // `observe` returns); the registration's gate must already be closed.
        let view = ProfileView()
        let person = Person()
        var log: [String] = []
        let controller = view.observations
        controller.observe(person, \.age, options: [.initial, .new]) { _, person, change in
            log.append("age \(change.newValue!)")
            controller.unobserve(person, \.age)
            if change.newValue == 0 { person.age = 5 }
        }
        #expect(log == ["age 0"])
        #expect(person.age == 5)
    }

    @Test("unobserving everything from inside a callback stops the change in flight too")
    func unobserveAllInCallback() {
        let view = ProfileView()
        let person = Person()
        var log: [String] = []
        let controller = view.observations
        controller.observe(person, \.name) { _, _, _ in log.append("name") }
        controller.observe(person, \.age) { _, _, _ in
            log.append("age")
            controller.unobserveAll()
        }
        // A second observer of `age` on the same object, registered after the controller's.
        let token = person.observe(\.age) { _, _ in log.append("token") }
        person.age = 1
        person.name = "x"
        #expect(log == ["age", "token"])
        withExtendedLifetime(token) {}
    }

    @Test("resurrection guard: nothing reaches an observer that has begun deinitialising")
    func resurrectionGuard() {
        let person = Person()
        var calls = 0
        do {
            let setter = DeinitSetter(person)
            setter.observations.observe(person, \.age) { _, _, _ in calls += 1 }
            person.age = 1
        }  // its deinit sets person.age while its controller still observes
        #expect(person.age == 99)
        #expect(calls == 1)
    }
}
