import Foundation
import ObservableCore
import Testing

// Seed 001 lists every way Cocoa KVO crashes an app. Each test here commits one of those mistakes the
// way a real app would, and asserts what happens instead: a defined outcome, never a trap, hang or
// leak. The table of GuaranteesAndMisuse.md ("Guarantees and misuse") names these tests.

@Suite("KVO crash catalogue")
struct CrashCatalogueTests {
    // MARK: 1. An empty or malformed key path

    @Test("an empty key path (\\.self) or one through no @Observed property observes nothing")
    func emptyKeyPath() {
        let person = Person(name: "Ann")
        var calls: [String] = []
        let identity = person.observe(\.self, options: [.initial, .new]) { _, change in
            calls.append("self \(change.newValue!.name)")
        }
        let unobservable = person.observe(\.scratch, options: [.new]) { _, _ in calls.append("scratch") }
        person.name = "Bob"
        person.scratch = 1
        #expect(calls == ["self Ann"])  // only .initial: nothing can notify
        #expect(!identity.isActive && !unobservable.isActive)
        identity.cancel()
        unobservable.cancel()

        let view = ProfileView()
        view.observations.observe(person, \.self) { _, _, _ in calls.append("controller") }
        person.name = "Cid"
        #expect(!view.observations.isObserving(person, \Person.self))
        view.observations.unobserve(person, \.self)
        #expect(calls == ["self Ann"])
    }

    // MARK: 2. An observer without a handler
    // Cannot be written: the handler (or the action method) is a required, typed argument, checked by
    // the compiler. Nothing to test at run time.

    // MARK: 3. Removing twice, removing what was never added, unbalanced counts

    @Test("removing twice")
    func removeTwice() {
        let person = Person()
        let view = ProfileView()
        var calls = 0
        let token = person.observe(\.age) { _, _ in calls += 1 }
        view.observations.observe(person, \.age) { _, _, _ in calls += 1 }
        token.cancel()
        token.cancel()
        view.observations.unobserve(person, \.age)
        view.observations.unobserve(person, \.age)
        view.observations.unobserve(person)
        view.observations.unobserve(person)
        view.observations.unobserveAll()
        view.observations.unobserveAll()
        person.age = 1
        #expect(calls == 0)
    }

    @Test("removing what was never added")
    func removeNeverAdded() {
        let person = Person()
        let stranger = Person()
        let view = ProfileView()
        var calls = 0
        view.observations.observe(person, \.age) { _, _, _ in calls += 1 }
        view.observations.unobserve(stranger, \.age)
        view.observations.unobserve(person, \.name)
        view.observations.unobserve(stranger)
        view.observations.unobserve(Canary())
        ObservationController(observer: view).unobserveAll()
        person.age = 1
        #expect(calls == 1)  // the one real observation is untouched
    }

    @Test("more removals than additions, and more additions than removals")
    func unbalancedCounts() {
        let person = Person()
        var calls = 0
        // Tokens: five added, three removed (one of them three times): exactly two remain.
        let tokens = (0..<5).map { _ in person.observe(\.age) { _, _ in calls += 1 } }
        tokens[0].cancel()
        tokens[0].cancel()
        tokens[0].cancel()
        tokens[1].cancel()
        tokens[2].cancel()
        person.age = 1
        #expect(calls == 2)

        // A controller: one pair added three times is one observation; one removal ends it.
        let view = ProfileView()
        calls = 0
        for _ in 0..<3 { view.observations.observe(person, \.name) { _, _, _ in calls += 1 } }
        person.name = "x"
        #expect(calls == 1)
        view.observations.unobserve(person, \.name)
        for _ in 0..<3 { view.observations.unobserve(person, \.name) }
        person.name = "y"
        #expect(calls == 1)
        withExtendedLifetime(tokens) {}
    }

    // MARK: 4. The observer is deallocated without removing its observations

    @Test("an observer freed without removing anything: nothing reaches it, the observed object is unaffected")
    func observerDeallocatedWithoutRemoving() {
        let person = Person()
        weak var weakWatcher: Watcher?
        weak var weakView: ProfileView?
        var calls = 0
        do {
            let watcher = Watcher()
            weakWatcher = watcher
            watcher.token = person.observe(\.age) { _, _ in calls += 1 }
            let view = ProfileView()
            weakView = view
            view.observations.observe(person, keyPaths: [\.age, \.address?.city]) { _, _, _ in calls += 1 }
            person.age = 1
        }
        #expect(weakWatcher == nil && weakView == nil)
        for value in 2...100 { person.age = value }
        person.address = Address()
        #expect(calls == 2)
    }

    @Test("a controller that outlives its observer: callbacks stop, removal still works")
    func controllerOutlivesObserver() {
        let person = Person()
        var calls = 0
        var controller: ObservationController<ProfileView>?
        do {
            let view = ProfileView()
            controller = ObservationController(observer: view)
            controller!.observe(person, \.age) { _, _, _ in calls += 1 }
        }
        person.age = 1
        #expect(calls == 0)
        controller!.unobserve(person)
        controller = nil
        person.age = 2
        #expect(calls == 0)
    }

    // MARK: 5. The observed object is deallocated first

    @Test("the observed object dies first, then the tokens and controller are used and released")
    func observedDeallocatedFirst() {
        let view = ProfileView()
        let controller = ObservationController(observer: view, retainsObserved: false)
        var tokens: [ObservationToken] = []
        weak var weakPerson: Person?
        do {
            let person = Person()
            weakPerson = person
            person.address = Address()
            tokens.append(person.observe(\.age) { _, _ in })
            tokens.append(person.observe(\.address?.city, options: [.prior, .old, .new]) { _, _ in })
            controller.observe(person, keyPaths: [\.age, \.summary]) { _, _, _ in }
        }
        #expect(weakPerson == nil)
        #expect(tokens.allSatisfy { !$0.isActive })
        #expect(controller.observedObjects.isEmpty)
        for token in tokens { token.cancel() }
        controller.unobserveAll()
        tokens.removeAll()
    }

    @Test(
        "observer side and observed side released in either order, with observations registered",
        arguments: [true, false])
    func eitherOrderWithController(observedFirst: Bool) {
        weak var weakPerson: Person?
        weak var weakView: ProfileView?
        var person: Person? = Person()
        var view: ProfileView? = ProfileView()
        weakPerson = person
        weakView = view
        let controller = ObservationController(observer: view!, retainsObserved: false)
        controller.observe(person!, keyPaths: [\.name, \.address?.city]) { _, _, _ in }
        if observedFirst {
            person = nil
            view = nil
        } else {
            view = nil
            person = nil
        }
        #expect(weakPerson == nil && weakView == nil)
        #expect(controller.observedObjects.isEmpty)
    }

    // MARK: 6. The two lifetimes end on different threads

    @Test("observed objects and observers released on two threads at once, many times")
    func lifetimesOnDifferentThreads() {
        let rounds = 200
        let freed = Counter()
        for _ in 0..<rounds {
            let person = Locked<Person?>(Person())
            let view = Locked<ProfileView?>(ProfileView())
            weak var weakPerson: Person?
            weak var weakView: ProfileView?
            person.withLock { weakPerson = $0 }
            view.withLock { weakView = $0 }
            view.withLock { view in
                person.withLock { person in
                    view!.observations.observe(person!, keyPaths: [\.age, \.address?.city]) { _, _, _ in }
                }
            }
            let token = Locked<ObservationToken?>(person.withLock { $0!.observe(\.name) { _, _ in } })
            runConcurrently([
                { person.withLock { $0 = nil } },
                { view.withLock { $0 = nil } },
                { token.withLock { $0 = nil } },
            ])
            if weakPerson == nil && weakView == nil { freed.increment() }
        }
        #expect(freed.current == rounds)
    }

    // MARK: 7. Multi-level key paths whose intermediate objects die

    @Test("an intermediate held weakly dies: the path stays valid and rewires on the next set")
    func weakIntermediateDies() {
        let ann = Person(name: "Ann")
        var names: [String?] = []
        let token = ann.observe(\.friend?.name, options: [.new]) { _, change in names.append(change.newValue!) }
        do {
            let bob = Person(name: "Bob")
            ann.friend = bob
            bob.name = "Bobby"
        }  // Bob dies; like Cocoa, a weak reference zeroing itself is not a set and does not notify
        #expect(ann.friend == nil)
        let cid = Person(name: "Cid")
        ann.friend = cid
        cid.name = "Cidney"
        #expect(names == ["Bob", "Bobby", "Cid", "Cidney"])
        #expect(token.isActive)
    }

    @Test("the root dies while intermediates live on; the intermediates die later")
    func rootThenIntermediates() {
        weak var weakAddress: Address?
        var calls = 0
        var token: ObservationToken?
        var address: Address? = Address()
        weakAddress = address
        do {
            let person = Person()
            person.address = address
            token = person.observe(\.address?.city) { _, _ in calls += 1 }
            address!.city = "Oslo"
        }
        address!.city = "Rome"
        address = nil
        #expect(weakAddress == nil)
        #expect(calls == 1)
        #expect(token?.isActive == false)
    }

    @Test("every object of a three-level path is replaced and freed while observed")
    func threeLevelChurn() {
        let root = Person(name: "root")
        var cities: [String?] = []
        let token = root.observe(\.friend?.address?.city, options: [.new]) { _, change in
            cities.append(change.newValue!)
        }
        weak var firstFriend: Person?
        weak var firstAddress: Address?
        var keep: [Person] = []  // `friend` is weak: something must own the friends
        for round in 0..<3 {
            let friend = Person(name: "f\(round)")
            friend.address = Address(city: "c\(round)")
            if round == 0 {
                firstFriend = friend
                firstAddress = friend.address
            }
            keep = [friend]
            root.friend = friend
            friend.address = Address(city: "d\(round)")
        }
        #expect(cities == ["c0", "d0", "c1", "d1", "c2", "d2"])
        #expect(firstFriend == nil && firstAddress == nil)
        withExtendedLifetime((token, keep)) {}
    }

    // MARK: 8. User code run by a release inside the library

    @Test(
        "a deinit run by cancel/unobserve re-enters the library on the same list: no deadlock",
        .timeLimit(.minutes(1)))
    func reentrantDeinit() {
        /// Captured by a handler; when the library releases the handler, this calls back into it.
        final class Reentrant {
            let action: () -> Void
            init(_ action: @escaping () -> Void) { self.action = action }
            deinit { action() }
        }
        let person = Person()
        let view = ProfileView()
        var log: [String] = []
        var later: [ObservationToken] = []
        let other = person.observe(\.age) { _, _ in log.append("other") }

        // Cancelling this token frees its handler, whose capture registers on and cancels in the
        // same property's list from its deinit.
        var token: ObservationToken? = {
            let capture = Reentrant {
                later.append(person.observe(\.age) { _, _ in log.append("later") })
                other.cancel()
            }
            return person.observe(\.age) { _, _ in withExtendedLifetime(capture) {} }
        }()
        token?.cancel()
        token = nil

        // The same through a controller: unobserving frees a handler whose capture observes again.
        do {
            let capture = Reentrant {
                view.observations.observe(person, \.name) { _, _, _ in log.append("controller") }
            }
            view.observations.observe(person, \.name) { _, _, _ in withExtendedLifetime(capture) {} }
        }
        view.observations.unobserve(person, \.name)

        person.age = 1
        person.name = "x"
        #expect(log == ["later", "controller"])
        withExtendedLifetime(later) {}
    }
}
