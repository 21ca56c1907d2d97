import ObservableCore
import Testing

/// A change of a string key path reduced to comparable strings.
private func describe(_ change: KeyedChange) -> String {
    "\(change.isPrior ? "prior" : "post") \(change.oldValue.map { "\($0)" } ?? "nil") -> \(change.newValue.map { "\($0)" } ?? "nil")"
}

/// Conforms by hand: `@Observed` serves typed key paths, but no list names its properties.
private final class Gallery: KeyValueObservable {
    @Observed var title = ""
}

@KeyValueObservable
private final class Museum {
    var gallery: Gallery? = Gallery()
}

/// Not `@KeyValueObservable`: it inherits `Person`'s list, which lacks its own property.
private final class Visitor: Person {
    @Observed var badge = 0
}

/// Declares a field named like the storage of the `@Observed var name` it inherits (`Person`'s
/// `_name` is private to another file).
private final class Impostor: Person {
    var _name = 42
    @Observed var _age = "not the age"
}

@Suite("String key paths")
struct StringKeyPathTests {
    @Test("a subclass field named like an inherited property's storage is not read for it")
    func storageNameInSubclass() throws {
        let impostor = Impostor(name: "ann")
        var seen: [String] = []
        let tokens = [
            try impostor.observe(keyPath: "name", options: [.initial, .new]) { _, change in
                seen.append(describe(change))
            },
            try impostor.observe(keyPath: "age", options: [.initial, .old, .new]) { _, change in
                seen.append(describe(change))
            },
        ]
        impostor.name = "bob"
        impostor.age = 3
        #expect(seen == ["post nil -> ann", "post nil -> 0", "post nil -> bob", "post 0 -> 3"])
        #expect(impostor._name == 42)
        withExtendedLifetime(tokens) {}
    }

    @Test("a property by name: old and new values as Any, and the string in the change")
    func singleKey() throws {
        let person = Person(name: "Ann")
        var seen: [String] = []
        var keyPaths: [String] = []
        let token = try person.observe(keyPath: "name", options: [.initial, .prior, .old, .new]) { _, change in
            seen.append(describe(change))
            keyPaths.append(change.keyPath)
        }
        person.name = "Bo"
        #expect(seen == ["post nil -> Ann", "prior Ann -> nil", "post Ann -> Bo"])
        #expect(keyPaths == ["name", "name", "name"])
        withExtendedLifetime(token) {}
    }

    @Test("a nested path: leaf changes, replacement of the intermediate, and a nil intermediate")
    func nestedPath() throws {
        let person = Person()
        let oslo = Address(city: "Oslo")
        person.address = oslo
        var seen: [String] = []
        let token = try person.observe(keyPath: "address.city") { _, change in seen.append(describe(change)) }
        oslo.city = "Bergen"
        let rome = Address(city: "Rome")
        person.address = rome
        oslo.city = "ignored: no longer on the path"
        rome.city = "Milan"
        person.address = nil
        #expect(seen == ["post Oslo -> Bergen", "post Bergen -> Rome", "post Rome -> Milan", "post Milan -> nil"])
        withExtendedLifetime(token) {}
    }

    @Test("superclass properties through a subclass, and weak properties, resolve by name")
    func inheritedAndWeak() throws {
        let student = Student(name: "Ann")
        let friend = Person(name: "Bo")
        var seen: [String] = []
        let tokens = [
            try student.observe(keyPath: "name", options: [.new]) { _, change in seen.append("name \(change.newValue!)")
            },
            try student.observe(keyPath: "school", options: [.new]) { _, change in
                seen.append("school \(change.newValue!)")
            },
            try student.observe(keyPath: "friend.name", options: [.new]) { _, change in
                seen.append("friend \(change.newValue.map { "\($0)" } ?? "nil")")
            },
        ]
        student.name = "Anna"
        student.school = "MIT"
        student.friend = friend
        friend.name = "Bob"
        #expect(seen == ["name Anna", "school MIT", "friend Bo", "friend Bob"])
        withExtendedLifetime((tokens, friend)) {}
    }

    @Test(
        "errors name the reason, the offending component and the type it was looked up in",
        arguments: [
            ("", StringKeyPathError.Reason.emptyComponent, "", "Person"),
            ("address..city", .emptyComponent, "", "Address"),
            ("nmae", .unknownKey, "nmae", "Person"),
            ("summary", .unknownKey, "summary", "Person"),
            ("scratch", .unknownKey, "scratch", "Person"),
            ("address.zip", .unknownKey, "zip", "Address"),
            ("name.count", .notAnObject, "count", "String"),
            // Split at every ".", as Cocoa splits, also one a combining mark follows.
            ("name.\u{301}x", .notAnObject, "\u{301}x", "String"),
        ])
    func errors(path: String, reason: StringKeyPathError.Reason, key: String, typeName: String) {
        let person = Person()
        var calls = 0
        #expect(throws: StringKeyPathError(reason: reason, key: key, typeName: typeName, path: path)) {
            _ = try person.observe(keyPath: path) { _, _ in calls += 1 }
        }
        person.name = "set after a failed observe"
        #expect(calls == 0)
    }

    @Test("the error reads well")
    func errorDescription() {
        do {
            _ = try Person().observe(keyPath: "adress.city") { _, _ in }
            Issue.record("no error")
        } catch {
            #expect(error.description == "\"adress.city\": Person has no property 'adress' that a string key reaches")
        }
    }

    @Test("a class that no @KeyValueObservable lists is refused with a clear reason, wherever it is met")
    func notListed() throws {
        let museum = Museum()
        let refused = StringKeyPathError(reason: .notListed, key: "title", typeName: "Gallery", path: "gallery.title")
        #expect(throws: refused) { _ = try museum.observe(keyPath: "gallery.title") { _, _ in } }
        #expect(
            refused.description
                == "\"gallery.title\": Gallery is not @KeyValueObservable, so string keys find no property 'title' of its own"
        )
        // A subclass that is not finds its superclass's properties, not its own.
        let visitor = Visitor()
        #expect(throws: StringKeyPathError(reason: .notListed, key: "badge", typeName: "Visitor", path: "badge")) {
            _ = try visitor.observe(keyPath: "badge") { _, _ in }
        }
        var names: [String] = []
        let token = try visitor.observe(keyPath: "name") { _, change in names.append(change.newValue as! String) }
        visitor.name = "Vi"
        #expect(names == ["Vi"])
        withExtendedLifetime(token) {}
    }

    @Test("cancel ends it; the observed object's deallocation ends it and frees the handler's captures")
    func lifetimes() throws {
        let person = Person()
        var calls = 0
        let token = try person.observe(keyPath: "age") { _, _ in calls += 1 }
        person.age = 1
        token.cancel()
        person.age = 2
        #expect(calls == 1)

        // One property is observed directly, a longer path as a path: both end with the object.
        for keyPath in ["age", "address.city"] {
            weak var released: Person?
            weak var captured: Canary?
            var survivor: ObservationToken?
            do {
                let doomed = Person()
                let canary = Canary()
                released = doomed
                captured = canary
                survivor = try doomed.observe(keyPath: keyPath) { _, _ in withExtendedLifetime(canary) {} }
                doomed.age = 1
            }
            #expect(released == nil, "\(keyPath)")
            #expect(captured == nil, "\(keyPath)")
            #expect(survivor?.isActive == false, "\(keyPath)")
        }
    }
}
