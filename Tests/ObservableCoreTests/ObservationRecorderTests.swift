import ObservableCore
import ObservableCoreTesting
import Testing

@Suite("ObservationRecorder and RecordedChange")
struct ObservationRecorderTests {
    @Test("records several key paths' changes in order, compared in one line")
    func recordsInOrder() {
        let person = Person()
        let recorder = ObservationRecorder(person, \.name, \.age)
        person.name = "Ann"
        person.age = 3
        person.name = "Bo"
        #expect(
            recorder.changes == [
                .setting(\.name, old: "", new: "Ann"),
                .setting(\.age, old: 0, new: 3),
                .setting(\.name, old: "Ann", new: "Bo"),
            ])
    }

    @Test(".initial records each key path's current value first, in the order given; .prior before the store")
    func initialAndPrior() {
        let person = Person(name: "Ann")
        person.age = 7
        let initial = ObservationRecorder(person, \.age, \.name, options: [.initial, .new])
        #expect(initial.changes == [.setting(\.age, new: 7), .setting(\.name, new: "Ann")])
        let prior = ObservationRecorder(person, \.age, options: [.old, .prior])
        person.age = 8
        #expect(prior.changes == [.prior(\.age, old: 7), RecordedChange(\.age, old: 7, new: nil)])
    }

    @Test("collections mutated in place record the kind and the indexes")
    func collectionMutations() {
        let person = Person()
        let recorder = ObservationRecorder(person, \.tags)
        person.tags.append("vip")
        person.tags.append("new")
        person.tags[0] = "gold"
        person.tags.remove(at: 1)
        person.tags = []
        #expect(
            recorder.changes == [
                .insertion(\.tags, at: 0, old: [], new: ["vip"]),
                .insertion(\.tags, at: 1, old: ["vip"], new: ["vip", "new"]),
                .replacement(\.tags, at: 0, old: ["vip", "new"], new: ["gold", "new"]),
                .removal(\.tags, at: 1, old: ["gold", "new"], new: ["gold"]),
                .setting(\.tags, old: ["gold"], new: []),
            ])
    }

    @Test("a nested optional path: `nil` is the value nil, an option left out is absent")
    func nestedOptionalPath() {
        let person = Person()
        let recorder = ObservationRecorder(person, \.address?.city)
        person.address = Address(city: "Oslo")
        person.address?.city = "Rome"
        person.address = nil
        #expect(
            recorder.changes == [
                .setting(\.address?.city, old: nil, new: "Oslo"),
                .setting(\.address?.city, old: "Oslo", new: "Rome"),
                .setting(\.address?.city, old: "Rome", new: nil),
            ])
        // The old value nil (the property was nil) is not the old value left out by the options.
        #expect(recorder.changes[0] != RecordedChange(\Person.address?.city, old: String??.none, new: "Oslo"))
    }

    @Test("two recordings differ when any part differs")
    func inequality() {
        let change = RecordedChange<Person>.setting(\.name, old: "", new: "Ann")
        #expect(change == .setting(\.name, old: "", new: "Ann"))
        #expect(change != .setting(\.name, old: "", new: "Bo"))
        #expect(change != .setting(\.name, old: "x", new: "Ann"))
        #expect(change != .setting(\.name, new: "Ann"))
        #expect(change != .prior(\.name, old: ""))
        #expect(change != RecordedChange(\.name, kind: .replacement, old: "", new: "Ann"))
        #expect(change != RecordedChange(\.name, old: "", new: "Ann", indexes: RangeSet(0..<1)))
        #expect(RecordedChange<Person>.setting(\.age, old: 0, new: 1) != .setting(\Person.scratch, old: 0, new: 1))
        #expect(RecordedChange<Person>.setting(\.age, new: 1) != .setting(\Person.name, new: "1"))
    }

    @Test("a recording reads as the user wrote it")
    func descriptions() {
        let person = Person()
        let recorder = ObservationRecorder(person, \.name, \.tags)
        recorder.record(\.age, options: [.old, .prior])
        person.name = "Ann"
        person.tags.append("vip")
        person.age = 2
        #expect(
            recorder.changes.map(\.description) == [
                #"\Person.name: "" → "Ann""#,
                #"\Person.tags insertion at 0..<1: [] → ["vip"]"#,
                #"\Person.age prior: 0 → (absent)"#,
                #"\Person.age: 0 → (absent)"#,
            ])
    }

    @Test("removeAll forgets, stop ends the recording; the recorder keeps nothing alive")
    func removeAllStopAndLifetimes() {
        weak var released: Person?
        var recorder: ObservationRecorder<Person>
        do {
            let person = Person()
            released = person
            recorder = ObservationRecorder(person, \.age)
            person.age = 1
            recorder.removeAll()
            person.age = 2
            #expect(recorder.changes == [.setting(\.age, old: 1, new: 2)])
            #expect(!recorder.observedWasDeallocated)
        }
        #expect(released == nil)
        #expect(recorder.observedWasDeallocated)
        #expect(recorder.changes == [.setting(\.age, old: 1, new: 2)])

        let person = Person()
        recorder = ObservationRecorder(person, \.age)
        person.age = 1
        recorder.stop()
        person.age = 2
        #expect(recorder.changes == [.setting(\.age, old: 0, new: 1)])
        recorder.record(\.age)
        person.age = 3
        #expect(recorder.changes == [.setting(\.age, old: 0, new: 1), .setting(\.age, old: 2, new: 3)])

        weak var releasedRecorder: ObservationRecorder<Person>?
        do {
            let transient = ObservationRecorder(person, \.age)
            releasedRecorder = transient
        }
        #expect(releasedRecorder == nil)
        person.age = 4  // its observation ended with it
    }

    @Test("sets on other threads are all recorded, each property's in its order")
    func threads() {
        let person = Person()
        let recorder = ObservationRecorder(person, \.age, \.name, options: [.new])
        nonisolated(unsafe) let shared = person
        runConcurrently([
            { for i in 1...500 { shared.age = i } },
            { for i in 1...500 { shared.name = "\(i)" } },
        ])
        let changes = recorder.changes
        #expect(changes.filter { $0.keyPath == \Person.age } == (1...500).map { .setting(\.age, new: $0) })
        #expect(changes.filter { $0.keyPath == \Person.name } == (1...500).map { .setting(\.name, new: "\($0)") })
        #expect(changes.count == 1000)
    }
}
