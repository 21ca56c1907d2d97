import ObservableCore
import Testing

private final class Shelf: KeyValueObservable {
    @Observed var books = ["a", "b", "c"]
    @Observed var label = ""
}

/// Changes carry their key path without reference counting (it is interned for the life of the
/// process); these check that what a change says stays right and valid whatever happens to the key
/// path the caller passed in.
@Suite("Key paths carried by changes")
struct KeyPathInterningTests {
    @Test("a key path built at run time stays valid in a stored change after everything else let it go")
    func runTimeKeyPathOutlivesObservation() {
        let shelf = Shelf()
        var stored: [ObservedChange<String>] = []
        do {
            var index = 1
            index += Int.random(in: 0...0)   // a subscript argument known only at run time
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
            let keyPath: AnyKeyPath = \Shelf.books[index]   // a new object each time
            changes.append(ObservedChange<String>(oldValue: "a", newValue: "b", keyPath: keyPath))
        }
        let filler = (0..<1_000).map { \Shelf.books[$0 + 10] }
        #expect(changes.map(\.keyPath) == [\Shelf.books[0], \Shelf.books[1], \Shelf.books[2]])
        #expect(changes.allSatisfy { $0.oldValue == "a" && $0.newValue == "b" && $0.kind == .setting })
        #expect(filler.count == 1_000)
    }
}
