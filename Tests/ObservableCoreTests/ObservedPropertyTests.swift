import ObservableCore
import Testing

/// Counts how often an initial-value expression runs.
final class InitializerCounter: @unchecked Sendable {
    var count = 0
    func next() -> Int {
        count += 1
        return count
    }
}

final class Gauge: KeyValueObservable {
    var log: [String] = []
    @Observed var level: Int = 0 {
        willSet { log.append("willSet \(level) -> \(newValue)") }
        didSet {
            log.append("didSet \(oldValue) -> \(level)")
            if level > 10 { level = 10 }  // stores directly, as in plain Swift: no second round
        }
    }
}

final class Counted: KeyValueObservable {
    @Observed var value: Int
    init(counter: InitializerCounter) { value = counter.next() }
}

final class Defaulted: KeyValueObservable {
    static let counter = InitializerCounter()
    @Observed var value = Defaulted.counter.next()
}

final class Box<Element>: KeyValueObservable {
    @Observed var value: Element
    init(_ value: Element) { self.value = value }
}

@MainActor final class ViewModel: KeyValueObservable {
    @Observed var title = "Untitled"
    @Observed private(set) var revision = 0
    func bump() { revision += 1 }
}

/// Main-actor properties in a class that is not isolated: the implicit initializer stays nonisolated,
/// as in plain Swift.
final class Caption: KeyValueObservable {
    @Observed @MainActor var title = "Untitled"
    @Observed var revision = 0
}

@KeyValueObservable final class Banner {
    @MainActor var text = ""
    var width = 10
}

open class Account: KeyValueObservable {
    @Observed public private(set) var balance: Int = 0
    @Observed open var owner: String = ""
    public init() {}
    public func deposit(_ amount: Int) { balance += amount }
}

@Suite("The generated property")
struct ObservedPropertyTests {
    @Test("user willSet/didSet run exactly once per set, and a store inside didSet does not recurse")
    func userObserversRunOnce() {
        let gauge = Gauge()
        var seen: [Seen<Int>] = []
        let token = gauge.observe(\.level) { _, change in seen.append(.from(change)) }
        gauge.level = 5
        #expect(gauge.log == ["willSet 0 -> 5", "didSet 0 -> 5"])
        gauge.level = 50
        #expect(gauge.level == 10)
        #expect(gauge.log == ["willSet 0 -> 5", "didSet 0 -> 5", "willSet 5 -> 50", "didSet 5 -> 50"])
        // The notification carries what was stored in the end, as Cocoa reads the value at didChange.
        #expect(seen == [Seen(phase: "post", old: 0, new: 5), Seen(phase: "post", old: 5, new: 10)])
        withExtendedLifetime(token) {}
    }

    @Test("user observers also run for in-place mutation")
    func userObserversOnModify() {
        let gauge = Gauge()
        gauge.level += 3
        #expect(gauge.log == ["willSet 0 -> 3", "didSet 0 -> 3"])
    }

    @Test("an initial value is evaluated once per instance; an init assignment goes to storage")
    func initializerRunsOnce() {
        let before = Defaulted.counter.count
        let first = Defaulted()
        let second = Defaulted()
        #expect(Defaulted.counter.count == before + 2)
        #expect(first.value == before + 1 && second.value == before + 2)

        let counter = InitializerCounter()
        let counted = Counted(counter: counter)
        #expect(counter.count == 1 && counted.value == 1)
    }

    @Test("generic classes")
    func genericClass() {
        let box = Box([1, 2])
        var seen: [Seen<[Int]>] = []
        let token = box.observe(\.value) { _, change in seen.append(.from(change)) }
        box.value.append(3)
        #expect(seen == [Seen(phase: "post", old: [1, 2], new: [1, 2, 3])])
        withExtendedLifetime(token) {}
    }

    @Test("@MainActor classes, including private(set)")
    @MainActor func mainActorClass() {
        let model = ViewModel()
        var titles: [String] = []
        var revisions: [Int] = []
        let tokens = [
            model.observe(\.title) { _, change in titles.append(change.newValue!) },
            model.observe(\.revision) { _, change in revisions.append(change.newValue!) },
        ]
        model.title = "Draft"
        model.bump()
        model.bump()
        #expect(titles == ["Draft"])
        #expect(revisions == [1, 2])
        withExtendedLifetime(tokens) {}
    }

    @Test("main-actor properties of a nonisolated class: the implicit initializer, values, old and new")
    func mainActorProperties() async {
        // Made off the main actor: the implicit initializer is nonisolated.
        let caption = Caption()
        let banner = Banner()
        await MainActor.run {
            var heard: [String] = []
            let tokens = [
                caption.observe(\.title) { _, change in heard.append("title \(change.oldValue!)->\(change.newValue!)")
                },
                banner.observe(\.text) { _, change in heard.append("text \(change.oldValue!)->\(change.newValue!)") },
            ]
            caption.title = "Draft"
            banner.text = "Sale"
            banner.text += "!"
            #expect(heard == ["title Untitled->Draft", "text ->Sale", "text Sale->Sale!"])
            #expect(caption.title == "Draft" && banner.text == "Sale!" && banner.width == 10)
            withExtendedLifetime(tokens) {}
        }
    }

    @Test("open/public classes, public private(set), and a subclass observed through both types")
    func openClassAndSubclass() {
        final class Savings: Account {
            override var owner: String {
                didSet { ownerChanges += 1 }
            }
            var ownerChanges = 0
        }
        let savings = Savings()
        var balances: [Int] = []
        var owners: [String] = []
        var ownersViaBase: [String] = []
        let tokens = [
            savings.observe(\.balance) { _, change in balances.append(change.newValue!) },
            savings.observe(\.owner) { _, change in owners.append(change.newValue!) },
            (savings as Account).observe(\.owner) { _, change in ownersViaBase.append(change.newValue!) },
        ]
        savings.deposit(10)
        savings.owner = "Ann"
        #expect(balances == [10])
        #expect(owners == ["Ann"])
        #expect(ownersViaBase == ["Ann"])
        #expect(savings.ownerChanges == 1)
        withExtendedLifetime(tokens) {}
    }

    @Test("a subclass's own and inherited @Observed properties")
    func subclassProperties() {
        let student = Student(name: "Ann")
        var seen: [String] = []
        let tokens = [
            student.observe(\.name) { _, change in seen.append("name \(change.newValue!)") },
            student.observe(\.school) { _, change in seen.append("school \(change.newValue!)") },
        ]
        student.school = "MIT"
        student.name = "Anna"
        #expect(seen == ["school MIT", "name Anna"])
        withExtendedLifetime(tokens) {}
    }

    @Test("weak references: storing keeps it weak; a set to nil notifies")
    func weakReference() {
        let person = Person(name: "Ann")
        var seen: [String?] = []
        let token = person.observe(\.friend) { _, change in seen.append(change.newValue!?.name) }
        weak var weakFriend: Person?
        do {
            let friend = Person(name: "Bob")
            weakFriend = friend
            person.friend = friend
            #expect(person.friend === friend)
        }
        #expect(weakFriend == nil)
        #expect(person.friend == nil)
        person.friend = nil
        #expect(seen == ["Bob", nil])
        withExtendedLifetime(token) {}
    }

    @Test("properties with no observer behave as plain stored properties")
    func plainBehaviour() {
        let account = Account()
        account.deposit(5)
        account.deposit(7)
        account.owner = "Cid"
        #expect(account.balance == 12)
        #expect(account.owner == "Cid")
    }
}

// The most common initializer: an @Observed property with an initial value assigned before a `let`.
@KeyValueObservable final class Tagged {
    var name = ""
    let id: Int
    init(name: String, id: Int) {
        self.name = name
        self.id = id
    }
}

final class Released: Sendable {
    let onDeinit: @Sendable () -> Void
    init(_ onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
    deinit { onDeinit() }
}

final class AssignsFirst: KeyValueObservable {
    @Observed var a = 1
    @Observed var held: Released
    let b: Int
    init(b: Int, held: Released, replacing initial: Released? = nil) {
        a = 5
        self.held = initial ?? held
        if initial != nil { self.held = held }  // after self is complete: a set
        self.b = b
    }
}

@Suite("Initializers")
struct InitializerShapeTests {
    @Test(
        "an initializer may assign @Observed properties with initial values before its other stored properties, as with plain ones"
    )
    func assignBeforeLet() {
        let tagged = Tagged(name: "x", id: 1)
        #expect(tagged.name == "x" && tagged.id == 1)
        var seen: [Seen<String>] = []
        let token = tagged.observe(\.name) { _, change in seen.append(.from(change)) }
        tagged.name = "y"
        #expect(seen == [Seen(phase: "post", old: "x", new: "y")])
        withExtendedLifetime(token) {}
    }

    @Test("an initial value replaced in init is released; the assigned value is kept")
    func initialValueReleased() {
        let released = Counter()
        let assigns = AssignsFirst(
            b: 2, held: Released { released.increment() }, replacing: Released { released.increment() })
        #expect(assigns.a == 5 && assigns.b == 2)
        #expect(released.current == 1)
        withExtendedLifetime(assigns) {}
        _ = consume assigns
        #expect(released.current == 2)
    }
}
