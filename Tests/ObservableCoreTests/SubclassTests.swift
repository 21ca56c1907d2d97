import ObservableCore
import Testing

/// A superclass that knows nothing of this library.
private class Widget {
    var title = ""
    var width = 0
}

private final class ObservedWidget: Widget, KeyValueObservable {
    @Observed override var title: String
    @Observed var height = 0
}

/// Overrides an @Observed property with an observer of its own.
private final class Teacher: Person {
    var log: [String] = []
    override var name: String {
        didSet { log.append("didSet \(oldValue)->\(name)") }
    }
}

@KeyValueObservable
private class Vehicle {
    var wheels = 4
}

@KeyValueObservable  // Vehicle already conforms: no second conformance is added
private final class Truck: Vehicle {
    var load = 0
}

open class Bulb: KeyValueObservable {
    @Observed open var watts = 40
}

/// Overrides an @Observed property with a getter that transforms the stored value.
final class DoubledBulb: Bulb {
    override var watts: Int {
        get { super.watts * 2 }
        set { super.watts = newValue / 2 }
    }
}

private final class LampViewer {
    lazy var observations = ObservationController(observer: self)
    var seen: [Seen<Int>] = []
}

@Suite("Subclasses")
struct SubclassTests {
    @Test(
        "a base-class key path on a subclass whose getter transforms the value delivers the key path's values (token, controller)"
    )
    func overridingGetter() {
        let lamp = DoubledBulb()
        var seen: [Seen<Int>] = []
        let token = (lamp as Bulb).observe(\Bulb.watts, options: [.initial, .old, .new]) { _, change in
            seen.append(.from(change, initial: change.oldValue == nil))
        }
        lamp.watts = 100
        #expect(lamp.watts == 100)
        #expect(seen == [Seen(phase: "initial", old: nil, new: 80), Seen(phase: "post", old: 80, new: 100)])

        let viewer = LampViewer()
        viewer.observations.observe(lamp as Bulb, \.watts) { viewer, _, change in viewer.seen.append(.from(change)) }
        lamp.watts = 10
        #expect(viewer.seen == [Seen(phase: "post", old: 100, new: 10)])
        #expect(seen.last == Seen(phase: "post", old: 100, new: 10))
        withExtendedLifetime(token) {}

        // A second registration on the same class takes the same (evaluating) route.
        var again: [Seen<Int>] = []
        let second = (lamp as Bulb).observe(\Bulb.watts) { _, change in again.append(.from(change)) }
        lamp.watts = 4
        #expect(again == [Seen(phase: "post", old: 10, new: 4)])
        withExtendedLifetime(second) {}

        // The base class itself still takes the direct route, with its own values.
        let plain = Bulb()
        var direct: [Seen<Int>] = []
        let third = plain.observe(\.watts) { _, change in direct.append(.from(change)) }
        plain.watts = 60
        #expect(direct == [Seen(phase: "post", old: 40, new: 60)])
        withExtendedLifetime(third) {}
    }

    @Test("a subclass's own @Observed property and the inherited ones are observable")
    func subclassProperties() {
        let student = Student(name: "Ann")
        var log: [String] = []
        let tokens = [
            student.observe(\.school) { _, change in log.append("school \(change.newValue!)") },
            student.observe(\.name) { _, change in log.append("name \(change.newValue!)") },
        ]
        student.school = "MIT"
        student.name = "Anna"
        #expect(log == ["school MIT", "name Anna"])
        withExtendedLifetime(tokens) {}
    }

    @Test("observing through a superclass-typed reference, and setting through either")
    func superclassTypedReference() {
        let student = Student(name: "Ann")
        let person: Person = student
        var seen: [Seen<String>] = []
        let token = person.observe(\.name) { _, change in seen.append(.from(change)) }
        student.name = "Bo"
        person.name = "Cy"
        #expect(seen == [Seen(phase: "post", old: "Ann", new: "Bo"), Seen(phase: "post", old: "Bo", new: "Cy")])
        withExtendedLifetime(token) {}
    }

    @Test("overriding an @Observed property with didSet keeps notifying, once per set, after the override's didSet")
    func overrideWithDidSet() {
        let teacher = Teacher(name: "Ann")
        var log: [String] = []
        let token = teacher.observe(\.name) { teacher, change in
            log.append("observed \(change.oldValue!)->\(change.newValue!)")
        }
        teacher.name = "Bo"
        #expect(teacher.log == ["didSet Ann->Bo"])
        #expect(log == ["observed Ann->Bo"])
        withExtendedLifetime(token) {}
    }

    @Test("@Observed override makes a property of a non-observable superclass observable")
    func observedOverride() {
        let widget = ObservedWidget()
        var seen: [Seen<String>] = []
        let token = widget.observe(\.title, options: [.initial, .prior, .old, .new]) { _, change in
            seen.append(.from(change, initial: change.oldValue == nil && !change.isPrior))
        }
        widget.title = "A"
        (widget as Widget).title = "B"  // set through the superclass: dynamic dispatch reaches the override
        #expect(
            seen == [
                Seen(phase: "initial", old: nil, new: ""),
                Seen(phase: "prior", old: "", new: nil),
                Seen(phase: "post", old: "", new: "A"),
                Seen(phase: "prior", old: "A", new: nil),
                Seen(phase: "post", old: "A", new: "B"),
            ])
        #expect((widget as Widget).title == "B")
        withExtendedLifetime(token) {}
    }

    @Test("a subclass's observations end when it is deallocated")
    func subclassLifetime() {
        weak var released: ObservedWidget?
        var token: ObservationToken?
        do {
            let widget = ObservedWidget()
            released = widget
            token = widget.observe(\.height) { _, _ in }
            #expect(token?.isActive == true)
        }
        #expect(released == nil)
        #expect(token?.isActive == false)
    }

    @Test("@KeyValueObservable on a class and its subclass: both levels observed")
    func classAttributeHierarchy() {
        let truck = Truck()
        var log: [String] = []
        let tokens = [
            truck.observe(\.wheels) { _, change in log.append("wheels \(change.newValue!)") },
            truck.observe(\.load) { _, change in log.append("load \(change.newValue!)") },
        ]
        truck.wheels = 6
        truck.load = 2
        #expect(log == ["wheels 6", "load 2"])
        withExtendedLifetime(tokens) {}
    }
}
