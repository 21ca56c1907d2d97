import ObservableCore
import Testing

@KeyValueObservable
final class Bookshelf: CustomReflectable {
    var label = "fiction"
    weak var neighbour: Bookshelf?
    var book: Novel?
    @Unobserved var dusted = false
    let id = 7
    var count: Int { 3 }
    static let made = 0
    lazy var catalogue = "A–Z"
}

@KeyValueObservable
final class Novel: CustomReflectable {
    var title: String
    init(title: String) { self.title = title }
}

/// Writes its own mirror: the macro leaves it, and string key paths find the properties in the class's
/// list all the same.
@KeyValueObservable
final class Placard: CustomReflectable {
    var caption = ""
    var customMirror: Mirror { Mirror(self, children: ["shown": caption]) }
}

/// Declares no `CustomReflectable`: the runtime's own mirror, with the macro's fields.
@KeyValueObservable
final class Carton {
    var items = 0
}

private func dumped(_ value: Any) -> String {
    var text = ""
    dump(value, to: &text)
    return text
}

@Suite("Reflection: the mirror @KeyValueObservable writes")
struct ReflectionTests {
    @Test("dump shows the stored properties as written, in order, not the storage and slots")
    func dumpShowsProperties() {
        let shelf = Bookshelf()
        shelf.book = Novel(title: "Emma")
        #expect(
            dumped(shelf) == """
                ▿ ObservableCoreTests.Bookshelf #0
                  - label: "fiction"
                  - neighbour: nil
                  ▿ book: Optional(ObservableCoreTests.Novel)
                    ▿ some: ObservableCoreTests.Novel #1
                      - title: "Emma"
                  - dusted: false
                  - id: 7

                """)
    }

    @Test("Mirror's children: labels as written, current values, weak ones read as they are now")
    func mirrorChildren() {
        let shelf = Bookshelf()
        shelf.label = "poetry"
        do {
            let other = Bookshelf()
            shelf.neighbour = other
            let mirror = Mirror(reflecting: shelf)
            #expect(mirror.displayStyle == .class)
            #expect(mirror.children.map(\.label) == ["label", "neighbour", "book", "dusted", "id"])
            #expect(mirror.descendant("label") as? String == "poetry")
            #expect((mirror.descendant("neighbour") as? Bookshelf) === other)
        }
        #expect(shelf.neighbour == nil)
        #expect(Mirror(reflecting: shelf).descendant("neighbour").map { "\($0)" } == "nil")
    }

    @Test("string key paths read through the mirror the macro wrote, nested and weak")
    func stringKeyPaths() throws {
        let shelf = Bookshelf()
        var seen: [String] = []
        let token = try shelf.observe(keyPath: "book.title", options: [.initial, .new]) { _, change in
            seen.append(change.newValue.map { "\($0)" } ?? "nil")
        }
        let neighbour = try shelf.observe(keyPath: "neighbour.label", options: [.new]) { _, change in
            seen.append("neighbour \(change.newValue.map { "\($0)" } ?? "nil")")
        }
        let emma = Novel(title: "Emma")
        shelf.book = emma
        emma.title = "Persuasion"
        let other = Bookshelf()
        shelf.neighbour = other
        other.label = "travel"
        shelf.book = nil
        shelf.label = "read by the mirror, yet no trigger of these paths"
        #expect(seen == ["nil", "Emma", "Persuasion", "neighbour fiction", "neighbour travel", "nil"])
        withExtendedLifetime((token, neighbour, other)) {}
    }

    @Test("a class writing its own mirror keeps it, and string key paths still find its properties in its list")
    func ownMirror() throws {
        let poster = Placard()
        #expect(Mirror(reflecting: poster).children.map(\.label) == ["shown"])
        var seen: [String?] = []
        let token = try poster.observe(keyPath: "caption", options: [.initial, .new]) { _, change in
            seen.append(change.newValue(as: String.self))
        }
        poster.caption = "Sale"
        #expect(seen == ["", "Sale"])
        withExtendedLifetime(token) {}
    }

    @Test("without CustomReflectable the runtime's mirror, storage and slots, is left alone")
    func undeclared() throws {
        let crate = Carton()
        #expect(Mirror(reflecting: crate).children.compactMap(\.label) == ["_items", "_$items"])
        var seen: [Int] = []
        let token = try crate.observe(keyPath: "items", options: [.new]) { _, change in
            seen.append(change.newValue as! Int)
        }
        crate.items = 2
        #expect(seen == [2])
        withExtendedLifetime(token) {}
    }
}
