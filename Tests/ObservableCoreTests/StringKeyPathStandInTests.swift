import Testing

@testable import ObservableCore

/// What the test's stand-ins stand in for: no other test's key path is given their name.
private struct Probe {
    var value = 0
}

@Suite("String key path stand-ins")
struct StringKeyPathStandInTests {
    @Test("a stand-in is made once per root type and string; each observation carries it")
    func madeOncePerRootAndString() throws {
        // Strings of their own, so that no other test has made their stand-ins.
        let text = "address.city.\(#function)"
        var made = 0
        func standIn(_ text: String, _ root: AnyClass) -> StringKeyPath.StandIn {
            StringKeyPath.standIn(text, from: root) {
                made += 1
                let keyPath = InternedKeyPath(\Probe.value)
                return StringKeyPath.StandIn(keyPath: keyPath, name: StringKeyPathNames.record(text, for: keyPath))
            }
        }
        let first = standIn(text, Person.self)
        let again = standIn(text, Person.self)
        #expect(made == 1)
        #expect(first.keyPath.object === again.keyPath.object && first.name.text === again.name.text)
        _ = standIn(text, Student.self)
        _ = standIn(text + ".", Person.self)
        #expect(made == 3)

        // Through `observe`: one stand-in for every observation of "name" from a `Person`, its name
        // the string.
        let path = try StringKeyPath("name", rootType: Person.self)
        let standIns = [
            path.standIn(for: Person.self), try StringKeyPath("name", rootType: Person.self).standIn(for: Person.self),
        ]
        #expect(standIns[0].keyPath.object === standIns[1].keyPath.object)
        #expect(standIns[0].name.string == "name")
        #expect(path.standIn(for: Student.self).keyPath.object !== standIns[0].keyPath.object)
    }
}
