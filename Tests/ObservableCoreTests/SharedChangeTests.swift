import ObservableCore
import Testing

/// A set builds one change for all the observations with the default options made through the
/// property's own class, and calls their handlers itself, each with its own key path; every other
/// entry (other options, a subclass-typed observation, a path observation) gets its own change. These
/// tests mix the two kinds in one list and check what each observer sees, and in what order.
@Suite("One change shared by the default-options observers of a set")
struct SharedChangeTests {
    /// What one callback saw: who, the key path it was given, and the values.
    struct Call: Equatable, CustomStringConvertible {
        var observer: String
        var keyPath: AnyKeyPath
        var old: String?
        var new: String?

        var description: String { "\(observer) \(keyPath) \(String(describing: old)) -> \(String(describing: new))" }
    }

    @Test("mixed entries are called in registration order, each with its key path and the values it asked for")
    func mixedEntriesInOrder() {
        let student = Student()
        student.name = "Ann"
        let person: Person = student
        var calls: [Call] = []
        func record(_ observer: String) -> (AnyObject, ObservedChange<String>) -> Void {
            { _, change in
                calls.append(
                    Call(observer: observer, keyPath: change.keyPath, old: change.oldValue, new: change.newValue))
            }
        }
        let tokens = [
            student.observe(\.name, record("student")),  // root Student: its own change
            person.observe(\.name, record("person 1")),  // shared
            person.observe(\.name, options: [.new], record("new only")),  // other options: its own change
            person.observe(\.summary) { _, change in
                calls.append(
                    Call(observer: "summary", keyPath: change.keyPath, old: change.oldValue, new: change.newValue))
            },
            person.observe(\.name, record("person 2")),  // shared, after the others
        ]
        student.name = "Bob"
        #expect(
            calls == [
                Call(observer: "student", keyPath: \Student.name, old: "Ann", new: "Bob"),
                Call(observer: "person 1", keyPath: \Person.name, old: "Ann", new: "Bob"),
                Call(observer: "new only", keyPath: \Person.name, old: nil, new: "Bob"),
                Call(observer: "summary", keyPath: \Person.summary, old: "Ann (0)", new: "Bob (0)"),
                Call(observer: "person 2", keyPath: \Person.name, old: "Ann", new: "Bob"),
            ])
        // The key paths really differ: a shared change that kept one key path for all would fail above.
        #expect(\Student.name as AnyKeyPath != \Person.name as AnyKeyPath)
        withExtendedLifetime(tokens) {}
    }

    @Test("an in-place mutation's kind and indexes reach every observer; the next set carries its own")
    func mutationKindAndIndexes() {
        let person = Person()
        var seen: [[String]] = [[], [], []]
        let tokens = (0..<3).map { index in
            person.observe(\.tags) { _, change in
                seen[index].append(
                    "\(change.kind) \(change.indexes.map { Array($0.ranges) } ?? []) "
                        + "\(change.oldValue!) -> \(change.newValue!)")
            }
        }
        person.tags.append("a")
        person.tags = ["z"]
        person.tags.insert("y", at: 0)
        let expected = [
            #"insertion [Range(0..<1)] [] -> ["a"]"#,
            #"setting [] ["a"] -> ["z"]"#,
            #"insertion [Range(0..<1)] ["z"] -> ["y", "z"]"#,
        ]
        #expect(seen == [expected, expected, expected])
        withExtendedLifetime(tokens) {}
    }

    @Test("an observer cancelled by an earlier one's callback during the set is not called")
    func cancelledDuringTheSet() {
        let person = Person()
        var order: [Int] = []
        var tokens: [ObservationToken] = []
        tokens.append(
            person.observe(\.age) { _, _ in
                order.append(0)
                tokens[2].cancel()
            })
        tokens.append(person.observe(\.age) { _, _ in order.append(1) })
        tokens.append(person.observe(\.age) { _, _ in order.append(2) })
        tokens.append(person.observe(\.age) { _, _ in order.append(3) })
        person.age = 1
        #expect(order == [0, 1, 3])
        person.age = 2
        #expect(order == [0, 1, 3, 0, 1, 3])
    }

    @Test("the shared change is released after the set: an old value it held is freed")
    func sharedChangeReleasesValues() {
        let person = Person()
        weak var oldAddress: Address?
        var cities: [String] = []
        do {
            let address = Address(city: "Oslo")
            person.address = address
            oldAddress = address
        }
        let tokens = (0..<3).map { _ in
            person.observe(\.address) { _, change in cities.append(change.oldValue!!.city) }
        }
        #expect(oldAddress != nil)
        person.address = nil
        #expect(cities == ["Oslo", "Oslo", "Oslo"])
        #expect(oldAddress == nil)
        withExtendedLifetime(tokens) {}
    }
}
