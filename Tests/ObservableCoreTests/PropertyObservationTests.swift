import ObservableCore
import Synchronization
import Testing

@testable import ObservableCore

/// A change of a whole-object observation reduced to comparable, sendable parts.
struct SeenProperty: Equatable, Sendable, CustomStringConvertible {
    var name: String
    var kind: ObservedChangeKind = .setting
    var isPrior = false
    var old: String?
    var new: String?
    var indexes: [Range<Int>]?

    init(
        _ name: String, _ kind: ObservedChangeKind = .setting, prior: Bool = false, old: String?, new: String?,
        indexes: [Range<Int>]? = nil
    ) {
        self.name = name
        self.kind = kind
        self.isPrior = prior
        self.old = old
        self.new = new
        self.indexes = indexes
    }

    init(_ change: PropertyChange) {
        self.init(
            change.name, change.kind, prior: change.isPrior, old: change.oldValue.map { "\($0)" },
            new: change.newValue.map { "\($0)" }, indexes: change.indexes?.ranges.map { $0 })
    }

    var description: String {
        "\(name) \(kind)\(isPrior ? " prior" : "") \(old ?? "nil") -> \(new ?? "nil")"
            + (indexes.map { " \($0)" } ?? "")
    }
}

@KeyValueObservable
final class Ledger {
    @Observed(notifiesAutomatically: false) var balance = 0
    var memo: String?

    func deposit(_ amount: Int) {
        notifyingChange(of: \.balance) { balance += amount }
    }
}

/// A superclass that knows nothing of this library, with a subclass observing one of its properties.
class PlainGauge {
    var reading = 0
}

@KeyValueObservable
final class ObservedGauge: PlainGauge, KeyValueObservable {
    @Observed override var reading: Int
    @Observed var unit = "°C"
}

@MainActor
@KeyValueObservable
final class MainActorForm {
    var title = ""
    var count = 0
}

@KeyValueObservable
final class Tray<Content> {
    var content: Content
    var label = ""
    init(_ content: Content) { self.content = content }
}

@KeyValueObservable
final class Unobservable: KeyValueObservable {
    @Unobserved var plain = 0
}

@Suite("Observing every property of an object")
struct PropertyObservationTests {
    @Test("every @Observed property, inherited and a subclass's own, with its name, key path and values")
    func everyProperty() {
        let student = Student(name: "Ann")
        let seen = Recorder<SeenProperty>()
        let keyPaths = Locked<[AnyKeyPath]>([])
        let token = student.observeProperties { observed, change in
            #expect(observed === student)
            seen.append(SeenProperty(change))
            keyPaths.withLock { $0.append(change.keyPath) }
        }
        student.name = "Bea"
        student.age = 7
        student.school = "North"
        student.scratch = 3  // not @Observed: not a change
        let address = Address(city: "Oslo")
        student.address = address
        student.address = nil
        #expect(
            seen.all == [
                SeenProperty("name", old: "Ann", new: "Bea"),
                SeenProperty("age", old: "0", new: "7"),
                SeenProperty("school", old: "", new: "North"),
                SeenProperty("address", old: nil, new: "\(address)"),
                SeenProperty("address", old: "\(address)", new: nil),
            ])
        // Rooted at the class that declares each property, as its own code forms it.
        #expect(
            keyPaths.withLock { $0 } == [\Person.name, \Person.age, \Student.school, \Person.address, \Person.address])
        #expect(token.isActive)
    }

    @Test("typed access to the values, and what a change prints")
    func typedValues() {
        let person = Person(name: "Ann")
        let checked = Counter()
        let token = person.observeProperties { _, change in
            #expect(change.oldValue(as: String.self) == "Ann")
            #expect(change.newValue(as: String.self) == "Cy")
            #expect(change.newValue(as: Int.self) == nil)
            #expect("\(change)" == #"PropertyChange(setting, name, old: "Ann", new: "Cy")"#)
            checked.increment()
        }
        person.name = "Cy"
        #expect(checked.current == 1)
        token.cancel()
    }

    @Test("options: only the values asked for; .prior before the store, then the change")
    func options() {
        let person = Person()
        let seen = Recorder<SeenProperty>()
        let newOnly = person.observeProperties(options: [.new]) { _, change in seen.append(SeenProperty(change)) }
        person.age = 1
        newOnly.cancel()
        let prior = person.observeProperties(options: [.old, .prior]) { object, change in
            // The prior notification comes before the store.
            if change.isPrior { #expect(object.age == 1) }
            seen.append(SeenProperty(change))
        }
        person.age = 2
        prior.cancel()
        #expect(
            seen.all == [
                SeenProperty("age", old: nil, new: "1"),
                SeenProperty("age", prior: true, old: "1", new: nil),
                SeenProperty("age", old: "1", new: nil),
            ])
    }

    @Test("an array mutated in place says what it did")
    func collectionKinds() {
        let person = Person()
        person.tags = ["a"]
        let seen = Recorder<SeenProperty>()
        let token = person.observeProperties { _, change in seen.append(SeenProperty(change)) }
        person.tags.append("b")
        person.tags.remove(at: 0)
        person.tags[0] = "c"
        person.tags = []
        #expect(
            seen.all == [
                SeenProperty("tags", .insertion, old: #"["a"]"#, new: #"["a", "b"]"#, indexes: [1..<2]),
                SeenProperty("tags", .removal, old: #"["a", "b"]"#, new: #"["b"]"#, indexes: [0..<1]),
                SeenProperty("tags", .replacement, old: #"["b"]"#, new: #"["c"]"#, indexes: [0..<1]),
                SeenProperty("tags", old: #"["c"]"#, new: "[]"),
            ])
        token.cancel()
    }

    @Test("it is told in registration order with the property's other observers")
    func orderWithOtherObservers() {
        let person = Person()
        let order = Recorder<String>()
        let before = person.observe(\.name) { _, _ in order.append("before") }
        let whole = person.observeProperties { _, change in order.append("whole \(change.name)") }
        let after = person.observe(\.name) { _, _ in order.append("after") }
        person.name = "x"
        person.age = 1
        #expect(order.all == ["before", "whole name", "after", "whole age"])
        withExtendedLifetime((before, whole, after)) {}
    }

    @Test("a second object of a class whose keys are learnt, a manual notification, and an override")
    func keysFromEverySource() {
        // Another instance: the class's keys may have been learnt already; changes say the same.
        for _ in 0..<2 {
            let person = Person()
            let keyPaths = Locked<[AnyKeyPath]>([])
            let token = person.observeProperties(options: [.prior]) { _, change in
                keyPaths.withLock { $0.append(change.keyPath) }
            }
            person.age = 3
            #expect(keyPaths.withLock { $0 } == [\Person.age, \Person.age])
            token.cancel()
        }
        // Sets of a property that notifies by hand teach nothing; the notification does.
        let ledger = Ledger()
        let seen = Recorder<SeenProperty>()
        let keyPaths = Locked<[AnyKeyPath]>([])
        let token = ledger.observeProperties { _, change in
            seen.append(SeenProperty(change))
            keyPaths.withLock { $0.append(change.keyPath) }
        }
        ledger.deposit(5)
        ledger.memo = "rent"
        #expect(seen.all == [SeenProperty("balance", old: "0", new: "5"), SeenProperty("memo", old: nil, new: "rent")])
        #expect(keyPaths.withLock { $0 } == [\Ledger.balance, \Ledger.memo])
        // An `@Observed override` of a plain superclass property is one of the subclass's.
        let gauge = ObservedGauge()
        let gaugeSeen = Recorder<SeenProperty>()
        let gaugeToken = gauge.observeProperties { _, change in gaugeSeen.append(SeenProperty(change)) }
        gauge.reading = 20
        gauge.unit = "K"
        #expect(
            gaugeSeen.all == [SeenProperty("reading", old: "0", new: "20"), SeenProperty("unit", old: "°C", new: "K")])
        withExtendedLifetime((token, gaugeToken)) {}
    }

    @Test("a main-actor class and a generic class")
    @MainActor
    func isolatedAndGeneric() {
        let form = MainActorForm()
        let seen = Recorder<SeenProperty>()
        let token = form.observeProperties { _, change in seen.append(SeenProperty(change)) }
        form.title = "Hi"
        form.count = 2
        #expect(seen.all == [SeenProperty("title", old: "", new: "Hi"), SeenProperty("count", old: "0", new: "2")])
        let box = Tray([1])
        let keyPaths = Locked<[AnyKeyPath]>([])
        let boxToken = box.observeProperties { _, change in
            seen.append(SeenProperty(change))
            keyPaths.withLock { $0.append(change.keyPath) }
        }
        box.content.append(2)
        box.label = "two"
        #expect(
            seen.all.suffix(2) == [
                SeenProperty("content", .insertion, old: "[1]", new: "[1, 2]", indexes: [1..<2]),
                SeenProperty("label", old: "", new: "two"),
            ])
        #expect(keyPaths.withLock { $0 } == [\Tray<[Int]>.content, \Tray<[Int]>.label])
        withExtendedLifetime((token, boxToken)) {}
    }

    @Test("cancelling: from outside, from inside the handler, twice; a set inside the handler is heard")
    func cancelling() {
        let person = Person()
        let seen = Recorder<SeenProperty>()
        let token = person.observeProperties { person, change in
            seen.append(SeenProperty(change))
            if change.name == "name", person.age == 0 { person.age = 1 }
        }
        person.name = "a"
        #expect(seen.all == [SeenProperty("name", old: "", new: "a"), SeenProperty("age", old: "0", new: "1")])
        token.cancel()
        token.cancel()
        #expect(!token.isActive)
        person.name = "b"
        #expect(seen.count == 2)

        let inside = Locked<ObservationToken?>(nil)
        let count = Counter()
        let cancelling = person.observeProperties { _, _ in
            count.increment()
            inside.withLock { $0?.cancel() }
        }
        inside.withLock { $0 = cancelling }
        person.name = "c"
        person.age = 9
        #expect(count.current == 1)
        #expect(!cancelling.isActive)
        // Nothing is left in the lists.
        #expect(person.observationsDescription.hasSuffix("no live observations"))
    }

    @Test("the object is not kept alive; its deallocation ends the observation once, and frees the handler")
    func lifetimes() {
        weak var weakPerson: Person?
        weak var weakCanary: Canary?
        let ended = Counter()
        let token: ObservationToken
        do {
            let person = Person()
            let canary = Canary()
            weakPerson = person
            weakCanary = canary
            token = person.observeProperties { _, _ in
                withExtendedLifetime(canary) {}
            } onObservedDeallocated: {
                ended.increment()
            }
            person.age = 1
        }
        #expect(weakPerson == nil)
        #expect(weakCanary == nil)
        #expect(ended.current == 1)
        #expect(!token.isActive)
        token.cancel()
        #expect(ended.current == 1)
        // Cancelled first: no end to report.
        let cancelledEnd = Counter()
        do {
            let person = Person()
            let cancelled = person.observeProperties { _, _ in
            } onObservedDeallocated: {
                cancelledEnd.increment()
            }
            cancelled.cancel()
        }
        #expect(cancelledEnd.current == 0)
    }

    @Test("an object with no @Observed property gives an inactive token, and debug builds say so once")
    func nothingToObserve() {
        let object = Unobservable()
        let token = object.observeProperties { _, _ in Issue.record("no property can change") }
        object.plain = 1
        #expect(!token.isActive)
        let message = """
            ObservableCore: observing the properties of a Unobservable can never notify: it has no \
            @Observed property. Mark its stored properties @Observed, or the class @KeyValueObservable. \
            (Reported once, in debug builds.)
            """
        #if DEBUG
        #expect(Diagnostics.messages.filter { $0 == message }.count == 1)
        #else
        #expect(!Diagnostics.messages.contains(message))
        #endif
    }

    @Test("listed among the object's live observations")
    func listed() {
        let person = Person()
        let token = person.observeProperties(options: [.new]) { _, _ in }
        let typed = person.observe(\.name) { _, _ in }
        #expect(
            person.observationsDescription.split(separator: "\n").dropFirst() == [
                "  every property [.new] token", "  \\Person.name [.old, .new] token",
            ])
        withExtendedLifetime((token, typed)) {}
    }

    @Test("observing, setting, cancelling and deallocating on many threads at once")
    func concurrency() {
        let heard = Counter()
        let ownHeard = Counter()
        // Each property of the shared object is set by one thread only (the model's own values
        // follow Swift's rules); observations come and go on every thread.
        nonisolated(unsafe) let shared = Person()
        runConcurrently(
            (0..<4).map { role in
                {
                    for round in 0..<300 {
                        let token = shared.observeProperties { _, _ in heard.increment() }
                        switch role {
                        case 0: shared.age = round
                        case 1: shared.name = "\(round)"
                        case 2: shared.tags.append("\(round)")
                        default: break
                        }
                        token.cancel()
                        let own = Student()
                        let ownToken = own.observeProperties { _, _ in ownHeard.increment() }
                        own.school = "\(round)"
                        withExtendedLifetime(ownToken) {}
                    }
                }
            })
        // Every set of an object of one thread's own was heard by its observation, and every shared
        // set at least by the observation made just before it on the setting thread.
        #expect(ownHeard.current == 4 * 300)
        #expect(heard.current >= 3 * 300)
        #expect(shared.observationsDescription.hasSuffix("no live observations"))
    }

    @Test("through a controller: one per object, beside its key paths; unobserved, replaced, described")
    func controller() {
        final class Editor {
            var heard: [String] = []
            func documentDidChange(_ person: Person, _ change: PropertyChange) { heard.append("action \(change.name)") }
        }
        let editor = Editor()
        let controller = ObservationController(observer: editor)
        let person = Person()
        controller.observeProperties(of: person) { editor, _, change in editor.heard.append(change.name) }
        controller.observe(person, \.name) { editor, _, _ in editor.heard.append("typed name") }
        #expect(controller.isObservingProperties(of: person))
        person.name = "a"
        person.age = 1
        #expect(editor.heard == ["name", "typed name", "age"])
        #expect(
            controller.debugDescription.contains("every property [.old, .new] controller"),
            "\(controller.debugDescription)")
        // Observing again replaces it, and leaves the key path's observation alone.
        controller.observeProperties(of: person, action: Editor.documentDidChange)
        editor.heard = []
        person.age = 2
        #expect(editor.heard == ["action age"])
        controller.unobserveProperties(of: person)
        #expect(!controller.isObservingProperties(of: person))
        person.age = 3
        person.name = "b"
        #expect(editor.heard == ["action age", "typed name"])
        controller.unobserveAll()
        #expect(person.observationsDescription.hasSuffix("no live observations"))
    }

    @Test("a controller that does not retain the object is told when it goes")
    func controllerDeallocation() {
        final class Observer {}
        let observer = Observer()
        let ended = Counter()
        let controller = ObservationController(observer: observer, retainsObserved: false) { _, _ in
            ended.increment()
        }
        weak var released: Person?
        do {
            let person = Person()
            released = person
            controller.observeProperties(of: person) { _, _, _ in }
        }
        #expect(released == nil)
        #expect(ended.current == 1)
        #expect(controller.observedObjects.isEmpty)
    }

    @Test("as an asynchronous sequence: one element per set, in order, ending with the object")
    func sequence() async {
        var iterator: PropertyChangeSequence<Student>.Iterator
        weak var released: Student?
        do {
            let student = Student()
            released = student
            iterator = student.propertyChanges().makeAsyncIterator()
            student.name = "a"
            student.school = "b"
            student.tags.append("c")
        }
        #expect(released == nil)
        var seen: [String] = []
        while let changed = await iterator.next() { seen.append("\(changed)") }
        #expect(seen == ["setting name", "setting school", "insertion tags 0..<1"])
    }
}
