import ObservableCore
import Testing

private final class Shelf: KeyValueObservable {
    @Observed var books = ["a", "b", "c"]
    @Observed var label = ""
}

private class Lamp: KeyValueObservable {
    var serial = 0
    @Observed var watts = 40
    @Observed var color = "white"
}

/// Another layout, and on a SmartLamp `\Lamp.watts` reads `color` too: a path through two
/// properties, where on a Lamp it is exactly one.
private final class SmartLamp: Lamp {
    var firmware = "1.0"
    override var watts: Int {
        get { color == "off" ? 0 : super.watts }
        set { super.watts = newValue }
    }
}

/// Changes carry their key path without reference counting (it is interned for the life of the
/// process); these check that what a change says stays right and valid whatever happens to the key
/// path the caller passed in. A key path once shown to be one `@Observed` property of a class is
/// registered on later instances straight through the slot; these check that such registrations
/// behave exactly as the first.
@Suite("Key paths: interning and repeated registration")
struct KeyPathInterningTests {
    @Test("a key path built at run time stays valid in a stored change after everything else let it go")
    func runTimeKeyPathOutlivesObservation() {
        let shelf = Shelf()
        var stored: [ObservedChange<String>] = []
        do {
            var index = 1
            index += Int.random(in: 0...0)  // a subscript argument known only at run time
            let keyPath = \Shelf.books[index]
            let token = shelf.observe(keyPath) { _, change in stored.append(change) }
            shelf.books[1] = "x"
            token.cancel()
        }
        // The token, the observation and the caller's key path are gone; allocate to reuse their memory.
        let filler = (0..<1_000).map { \Shelf.books[$0] }
        #expect(stored.count == 1)
        #expect(stored.first?.keyPath == \Shelf.books[1])
        #expect(stored.first?.keyPath != \Shelf.books[2])
        #expect(stored.first?.oldValue == "b")
        #expect(stored.first?.newValue == "x")
        #expect(filler.count == 1_000)
    }

    @Test("equal key paths from different observations report equal key paths; different ones differ")
    func equalKeyPathsAcrossObservations() {
        let shelf = Shelf()
        var keyPaths: [AnyKeyPath] = []
        let tokens = [0, 0, 2].map { index in
            shelf.observe(\Shelf.books[index]) { _, change in keyPaths.append(change.keyPath) }
        }
        shelf.books = ["p", "q", "r"]
        #expect(keyPaths.count == 3)
        #expect(keyPaths.filter { $0 == \Shelf.books[0] }.count == 2)
        #expect(keyPaths.filter { $0 == \Shelf.books[2] }.count == 1)
        withExtendedLifetime(tokens) {}
    }

    @Test("a change made by hand keeps its key path after the caller's is released")
    func publicInitialiser() {
        var changes: [ObservedChange<String>] = []
        for index in 0..<3 {
            let keyPath: AnyKeyPath = \Shelf.books[index]  // a new object each time
            changes.append(ObservedChange<String>(oldValue: "a", newValue: "b", keyPath: keyPath))
        }
        let filler = (0..<1_000).map { \Shelf.books[$0 + 10] }
        #expect(changes.map(\.keyPath) == [\Shelf.books[0], \Shelf.books[1], \Shelf.books[2]])
        #expect(changes.allSatisfy { $0.oldValue == "a" && $0.newValue == "b" && $0.kind == .setting })
        #expect(filler.count == 1_000)
    }

    @Test("registering one key path on many instances: each observes its own instance, with .initial")
    func repeatedRegistrations() {
        let lamps = (0..<4).map { index in
            let lamp = Lamp()
            lamp.watts = 10 * index
            return lamp
        }
        var seen: [String] = []
        let tokens = lamps.enumerated().map { index, lamp in
            lamp.observe(\.watts, options: [.initial, .old, .new]) { _, change in
                seen.append("\(index): \(change.oldValue.map(String.init) ?? "-")->\(change.newValue!)")
            }
        }
        #expect(seen == ["0: -->0", "1: -->10", "2: -->20", "3: -->30"])
        seen = []
        lamps[2].watts = 25
        lamps[0].color = "red"
        lamps[3].watts = 35
        #expect(seen == ["2: 20->25", "3: 30->35"])
        tokens[2].cancel()
        lamps[2].watts = 26
        #expect(seen == ["2: 20->25", "3: 30->35"])
        #expect(tokens.map(\.isActive) == [true, true, false, true])
    }

    @Test("the same key path on a subclass that overrides the property, between instances of the base")
    func repeatedRegistrationsAcrossSubclasses() {
        let first = Lamp()
        let smart = SmartLamp()
        let last = Lamp()
        var seen: [String] = []
        let tokens = [("first", first), ("smart", smart as Lamp), ("last", last)].map { name, lamp in
            lamp.observe(\Lamp.watts) { _, change in seen.append("\(name) \(change.oldValue!)->\(change.newValue!)") }
        }
        first.watts = 1
        smart.watts = 2
        last.watts = 3
        smart.color = "off"
        last.color = "off"
        (smart as Lamp).color = "white"
        #expect(seen == ["first 40->1", "smart 40->2", "last 40->3", "smart 2->0", "smart 0->2"])
        #expect(smart.firmware == "1.0" && smart.serial == 0)
        withExtendedLifetime(tokens) {}
    }
}
