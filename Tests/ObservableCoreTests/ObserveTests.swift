import ObservableCore
import ObservableCoreTesting
import Testing

@Suite("Observing one property")
struct ObserveTests {
    @Test("old and new values are delivered after each set, synchronously")
    func oldAndNew() {
        let person = Person(name: "Ann")
        let recorder = ObservationRecorder(person, \.name, options: [.old, .new])
        person.name = "Bob"
        #expect(recorder.changes == [.setting(\.name, old: "Ann", new: "Bob")])
        person.name = "Cid"
        #expect(
            recorder.changes == [.setting(\.name, old: "Ann", new: "Bob"), .setting(\.name, old: "Bob", new: "Cid")])
    }

    @Test("the default options deliver old and new")
    func defaultOptions() {
        let person = Person(name: "Ann")
        let recorder = ObservationRecorder(person, \.name)
        person.name = "Bob"
        #expect(recorder.changes == [.setting(\.name, old: "Ann", new: "Bob")])
    }

    @Test("Cocoa's order: .initial from inside observe, then prior (old only), then post (old and new)")
    func cocoaOrder() {
        let person = Person(name: "Ann")
        var seen: [Seen<String>] = []
        var returned = false
        let token = person.observe(\.name, options: [.initial, .prior, .old, .new]) { _, change in
            seen.append(.from(change, initial: !returned))
        }
        returned = true
        #expect(seen == [Seen(phase: "initial", old: nil, new: "Ann")])
        person.name = "Bob"
        #expect(
            seen == [
                Seen(phase: "initial", old: nil, new: "Ann"),
                Seen(phase: "prior", old: "Ann", new: nil),
                Seen(phase: "post", old: "Ann", new: "Bob"),
            ])
        withExtendedLifetime(token) {}
    }

    @Test("the prior notification runs before the store, the post one after it")
    func priorSeesOldStorage() {
        let person = Person(name: "Ann")
        var storedDuringCallback: [String] = []
        let token = person.observe(\.name, options: [.prior, .new]) { person, _ in
            storedDuringCallback.append(person.name)
        }
        person.name = "Bob"
        #expect(storedDuringCallback == ["Ann", "Bob"])
        withExtendedLifetime(token) {}
    }

    @Test(
        "options select what a change carries",
        arguments: [
            (ObservationOptions.new, nil as String?, "Bob" as String?),
            (ObservationOptions.old, "Ann", nil),
            (ObservationOptions(), nil, nil),
        ])
    func optionsSelectValues(options: ObservationOptions, old: String?, new: String?) {
        let person = Person(name: "Ann")
        var seen: [Seen<String>] = []
        let token = person.observe(\.name, options: options) { _, change in seen.append(.from(change)) }
        person.name = "Bob"
        #expect(seen == [Seen(phase: "post", old: old, new: new)])
        withExtendedLifetime(token) {}
    }

    @Test("every set notifies, also when the new value equals the old one")
    func equalValuesNotify() {
        let person = Person(name: "Ann")
        var count = 0
        let token = person.observe(\.name) { _, _ in count += 1 }
        person.name = "Ann"
        person.name = "Ann"
        #expect(count == 2)
        withExtendedLifetime(token) {}
    }

    @Test("the change carries the observed key path and the .setting kind")
    func keyPathAndKind() {
        let person = Person(name: "Ann")
        var changes: [ObservedChange<Int>] = []
        let token = person.observe(\.age) { _, change in changes.append(change) }
        person.age = 3
        #expect(changes.count == 1)
        #expect(changes.first?.keyPath == \Person.age)
        #expect(changes.first?.keyPath != \Person.name)
        #expect(changes.first?.kind == .setting)
        #expect(changes.first?.isPrior == false)
        withExtendedLifetime(token) {}
    }

    @Test("the observed object is passed to the handler")
    func objectIsPassed() {
        let person = Person(name: "Ann")
        var received: [ObjectIdentifier] = []
        let token = person.observe(\.age) { object, _ in received.append(ObjectIdentifier(object)) }
        person.age = 1
        #expect(received == [ObjectIdentifier(person)])
        withExtendedLifetime(token) {}
    }

    @Test("reference-typed values: old and new are the very objects")
    func referenceValues() {
        let person = Person()
        let first = Address(city: "Oslo")
        let second = Address(city: "Rome")
        var pairs: [(Address??, Address??)] = []
        let token = person.observe(\.address) { _, change in pairs.append((change.oldValue, change.newValue)) }
        person.address = first
        person.address = second
        person.address = nil
        #expect(pairs.count == 3)
        // Each value was requested, so it is present (.some) even when the property was nil.
        #expect(pairs.allSatisfy { $0.0 != nil && $0.1 != nil })
        #expect(pairs[0].0.map { $0 == nil } == true && pairs[0].1.flatMap { $0 } === first)
        #expect(pairs[1].0.flatMap { $0 } === first && pairs[1].1.flatMap { $0 } === second)
        #expect(pairs[2].0.flatMap { $0 } === second && pairs[2].1.map { $0 == nil } == true)
        withExtendedLifetime(token) {}
    }

    @Test("optionals: a nil value is .some(nil), distinct from 'not requested'")
    func optionalValues() {
        let person = Person()
        var changes: [ObservedChange<Address?>] = []
        let token = person.observe(\.address, options: [.new]) { _, change in changes.append(change) }
        person.address = nil
        #expect(changes.count == 1)
        #expect(changes[0].newValue != nil)  // requested: present…
        #expect(changes[0].newValue! == nil)  // …and it is nil
        #expect(changes[0].oldValue == nil)  // not requested
        withExtendedLifetime(token) {}
    }

    @Test("in-place mutation (_modify) notifies once with the whole old and new value")
    func inPlaceMutation() {
        let person = Person()
        let recorder = ObservationRecorder(person, \.tags)
        person.tags.append("a")
        person.tags.append("b")
        person.tags[0] = "z"
        #expect(
            recorder.changes == [
                .insertion(\.tags, at: 0, old: [], new: ["a"]),
                .insertion(\.tags, at: 1, old: ["a"], new: ["a", "b"]),
                .replacement(\.tags, at: 0, old: ["a", "b"], new: ["z", "b"]),
            ])
    }

    @Test("several observers of one property are notified in registration order")
    func registrationOrder() {
        let person = Person()
        var order: [Int] = []
        let tokens = (0..<5).map { index in person.observe(\.age) { _, _ in order.append(index) } }
        person.age = 1
        #expect(order == [0, 1, 2, 3, 4])
        tokens[2].cancel()
        order.removeAll()
        person.age = 2
        #expect(order == [0, 1, 3, 4])
    }

    @Test("cancelling the newest observations, then the rest, then observing again keeps registration order")
    func cancelNewestThenObserveAgain() {
        let person = Person()
        var order: [Int] = []
        var tokens = (0..<6).map { index in person.observe(\.age) { _, _ in order.append(index) } }
        tokens[2].cancel()
        tokens[5].cancel()
        tokens[4].cancel()  // the newest live one: 3 stays; 2 stays a hole
        tokens.append(person.observe(\.age) { _, _ in order.append(6) })
        person.age = 1
        #expect(order == [0, 1, 3, 6])
        for token in tokens { token.cancel() }
        tokens = [person.observe(\.age) { _, _ in order.append(7) }, person.observe(\.age) { _, _ in order.append(8) }]
        order.removeAll()
        person.age = 2
        #expect(order == [7, 8])
        #expect(tokens.map(\.isActive) == [true, true])
    }

    @Test("observations of different properties do not cross")
    func propertiesAreSeparate() {
        let person = Person()
        let recorder = ObservationRecorder(person, \.name, \.age)
        person.age = 1
        person.age = 2
        person.name = "x"
        #expect(
            recorder.changes == [
                .setting(\.age, old: 0, new: 1), .setting(\.age, old: 1, new: 2), .setting(\.name, old: "", new: "x"),
            ])
    }

    @Test("instances are separate: observing one never hears another")
    func instancesAreSeparate() {
        let ann = Person(name: "Ann")
        let bob = Person(name: "Bob")
        var heard: [String] = []
        let token = ann.observe(\.name) { _, change in heard.append(change.newValue!) }
        bob.name = "Bobby"
        ann.name = "Anna"
        #expect(heard == ["Anna"])
        withExtendedLifetime(token) {}
    }

    @Test("an unobserved property still stores normally, before and after observing")
    func storesWithoutObservers() {
        let person = Person(name: "Ann")
        person.name = "Bob"
        #expect(person.name == "Bob")
        let token = person.observe(\.name) { _, _ in }
        token.cancel()
        person.name = "Cid"
        #expect(person.name == "Cid")
    }
}
