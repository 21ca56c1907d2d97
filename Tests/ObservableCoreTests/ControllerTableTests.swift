import ObservableCore
import Testing

/// A captured object whose release the tests watch.
private final class Sentinel {}

@Suite("Controller table")
struct ControllerTableTests {
    /// Random observe / unobserve / unobserve(object) operations on a controller of many objects (past
    /// the size at which the table indexes its objects), each checked against a model: which pairs
    /// are observed, which objects, and that a set on every object reaches exactly the modelled
    /// handlers, once each.
    @Test("many objects, random operations: the controller agrees with a model after each", arguments: [1, 2, 3])
    func randomOperations(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let view = ProfileView()
        let people = (0..<40).map { Person(name: "p\($0)") }
        var observed: Set<String> = []  // "index name" and "index age"
        var heard: [String] = []
        func check() {
            for (index, person) in people.enumerated() {
                #expect(view.observations.isObserving(person, \Person.name) == observed.contains("\(index) name"))
                #expect(view.observations.isObserving(person, \Person.age) == observed.contains("\(index) age"))
            }
            let objects = Set(view.observations.observedObjects.map(ObjectIdentifier.init))
            let expected = Set(
                people.indices.filter { observed.contains("\($0) name") || observed.contains("\($0) age") }.map {
                    ObjectIdentifier(people[$0])
                })
            #expect(objects == expected)
            heard = []
            for person in people {
                person.name += "'"
                person.age += 1
            }
            #expect(heard.sorted() == observed.sorted())
        }
        for _ in 0..<300 {
            let index = Int.random(in: 0..<people.count, using: &random)
            let person = people[index]
            switch Int.random(in: 0..<5, using: &random) {
            case 0, 1:
                view.observations.observe(person, \.name) { _, _, _ in heard.append("\(index) name") }
                observed.insert("\(index) name")
            case 2:
                view.observations.observe(person, \.age) { _, _, _ in heard.append("\(index) age") }
                observed.insert("\(index) age")
            case 3:
                let keyPath: PartialKeyPath<Person> = Bool.random(using: &random) ? \.name : \.age
                view.observations.unobserve(person, keyPath)
                observed.remove("\(index) \(keyPath == \Person.name ? "name" : "age")")
            default:
                view.observations.unobserve(person)
                observed.remove("\(index) name")
                observed.remove("\(index) age")
            }
            check()
        }
        view.observations.unobserveAll()
        observed = []
        check()
    }

    @Test("a key path built at run time finds the observation of an equal literal")
    func equalKeyPathOfAnotherObject() {
        let view = ProfileView()
        let person = Person()
        var calls = 0
        view.observations.observe(person, \.age) { _, _, _ in calls += 1 }
        view.observations.observe(person, \.name) { _, _, _ in calls += 100 }
        let built = (\Person.self).appending(path: \Person.age)
        #expect(view.observations.isObserving(person, built))
        view.observations.unobserve(person, built)
        person.age = 1
        person.name = "x"
        #expect(calls == 100)
        #expect(!view.observations.isObserving(person, \Person.age))
    }

    @Test("what a handler captured is released on unobserve, on replacement and with the controller")
    func handlerCapturesReleased() {
        let person = Person()
        weak var unobserved: Sentinel?
        weak var replaced: Sentinel?
        weak var withController: Sentinel?
        var view: ProfileView? = ProfileView()
        do {
            let first = Sentinel()
            let second = Sentinel()
            let third = Sentinel()
            unobserved = first
            replaced = second
            withController = third
            view!.observations.observe(person, \.name) { _, _, _ in withExtendedLifetime(first) {} }
            view!.observations.observe(person, \.age) { _, _, _ in withExtendedLifetime(second) {} }
            view!.observations.observe(person, \.age) { _, _, _ in withExtendedLifetime(third) {} }
        }
        #expect(unobserved != nil)
        #expect(replaced == nil)
        view!.observations.unobserve(person, \.name)
        #expect(unobserved == nil)
        #expect(withController != nil)
        view = nil
        #expect(withController == nil)
    }

    @Test("without retaining: what a handler captured is released when the observed object dies")
    func handlerCapturesReleasedWithTheObject() {
        let view = ProfileView()
        let controller = ObservationController(observer: view, retainsObserved: false)
        weak var captured: Sentinel?
        do {
            let person = Person()
            let sentinel = Sentinel()
            captured = sentinel
            controller.observe(person, \.age) { _, _, _ in withExtendedLifetime(sentinel) {} }
            #expect(captured != nil)
        }
        #expect(captured == nil)
        #expect(controller.observedObjects.isEmpty)
    }
}
