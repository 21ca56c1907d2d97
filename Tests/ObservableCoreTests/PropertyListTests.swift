import Observation
import Testing

@testable import ObservableCore

// Shapes of `@KeyValueObservable` classes whose lists must say what each property is: storage of
// several types and ownerships, access levels and string-key options, a subclass with an override,
// a generic class, an actor-isolated class, a class declaring `Observable`, and existentials.
private protocol Listed: AnyObject {}

@KeyValueObservable
private class ListedBase {
    var flag = false
    var title = ""
    private var secret = 0
    @Observed(stringKey: true) fileprivate var shared = 0
    @Observed(stringKey: false) var unkeyed = 0
    weak var owner: ListedBase?
    unowned var anchor: Anchor
    var anything: Any = 0
    var delegate: (any Listed)?
    var object: AnyObject?
    @Unobserved var plain = 0
    let constant = 1

    init() { anchor = keptAnchor }
}

private final class Anchor: Sendable {}
private let keptAnchor = Anchor()

@KeyValueObservable
private final class ListedDerived: ListedBase {
    var count: Int8 = 0
    var tags: [String] = []
    @Observed override var title: String
}

@KeyValueObservable
private final class ListedBox<Element> {
    var padding: (Int8, Int64) = (0, 0)
    var item: Element
    init(_ item: Element) { self.item = item }
}

@MainActor @KeyValueObservable
private final class ListedScreen {
    var caption = ""
    // Observers that touch the actor's state: the setter runs them, in the class's isolation.
    var level = 0 {
        willSet { notes.append("will \(level)->\(newValue)") }
        didSet { note(oldValue) }
    }
    @Unobserved var notes: [String] = []

    func note(_ old: Int) { notes.append("did \(old)->\(level)") }
}

/// A class from elsewhere: its stored property is in no list.
private class Instrument {
    var reading = 1.5
    var serial = "A"
}

/// Observes the superclass's `reading` through an override, which reads the superclass's stored
/// property (through `Mirror`: no list names it).
@KeyValueObservable
private final class ListedInstrument: Instrument {
    @Observed override var reading: Double
    var unit = "°C"
}

private final class Unlisted: KeyValueObservable {
    @Observed var name = ""
}

@KeyValueObservable
private final class ListedLamp: Observable {
    var brightness = 5
    var name = ""
}

/// What a class's list must say of one property: its declared type, whether it holds its value
/// strongly, whether it is an existential, whether a string key reaches it.
private struct Expected {
    let name: String
    let type: Any.Type
    var isStrong = true
    var isExistential = false
    var hasStringKey = true
}

/// For every property expected of `object`'s class: the list finds it (by string key only where
/// one reaches it) with the declared type, ownership and kind; its slot is where the getter reports
/// it (evaluated under tracking through `keyPaths`, by name); its storage reads what the getter
/// returns; and the list finds no property the class does not observe.
private func expectListed<Root: AnyObject>(
    _ object: Root, _ expected: [Expected], keyPaths: [String: PartialKeyPath<Root>],
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let listed = try #require(ListedProperties.of(type(of: object)), sourceLocation: sourceLocation)
    for each in expected {
        let property = try #require(listed.property(each.name), "\(each.name)", sourceLocation: sourceLocation)
        #expect(
            (listed.property(each.name, keyed: true) != nil) == each.hasStringKey, "\(each.name)",
            sourceLocation: sourceLocation)
        #expect(
            ObjectIdentifier(property.storage.valueType) == ObjectIdentifier(each.type), "\(each.name)",
            sourceLocation: sourceLocation)
        #expect(property.isStrong == each.isStrong, "\(each.name)", sourceLocation: sourceLocation)
        #expect(
            property.flags.contains(.existential) == each.isExistential, "\(each.name)",
            sourceLocation: sourceLocation)
        let offset = listed.slotOffset(of: property, in: object)
        #expect(listed.name(ofSlotAt: offset) == each.name, sourceLocation: sourceLocation)
        guard let keyPath = keyPaths[each.name] else { continue }
        let (value, accesses) = Tracking.evaluate { object[keyPath: keyPath] }
        // The first read is the property's own (an override's getter then reads the superclass's).
        #expect(accesses.first?.property?.slotOffset == offset, "\(each.name)", sourceLocation: sourceLocation)
        let read = property.storage.read(object).map { String(describing: $0) }
        #expect(read == String(describing: value), "\(each.name)", sourceLocation: sourceLocation)
    }
    // Names the class does not observe are not listed.
    for name in ["plain", "constant", "missing", "$secret"] {
        #expect(listed.property(name) == nil, sourceLocation: sourceLocation)
    }
}

@Suite("What @KeyValueObservable lists of a class")
struct PropertyListTests {
    fileprivate static let base: [Expected] = [
        Expected(name: "flag", type: Bool.self), Expected(name: "title", type: String.self),
        Expected(name: "secret", type: Int.self, hasStringKey: false),
        Expected(name: "shared", type: Int.self), Expected(name: "unkeyed", type: Int.self, hasStringKey: false),
        Expected(name: "owner", type: ListedBase?.self, isStrong: false),
        Expected(name: "anchor", type: Anchor.self, isStrong: false),
        Expected(name: "anything", type: Any.self, isExistential: true),
        Expected(name: "delegate", type: (any Listed)?.self, isExistential: true),
        Expected(name: "object", type: AnyObject?.self, isExistential: true),
    ]
    fileprivate static var baseKeyPaths: [String: PartialKeyPath<ListedBase>] {
        [
            "flag": \.flag, "title": \.title, "unkeyed": \.unkeyed, "owner": \.owner, "anchor": \.anchor,
            "anything": \.anything, "delegate": \.delegate, "object": \.object,
        ]
    }

    @Test("a class's list names each property with its type, ownership and string key, at the slot its getter reports")
    func listsEveryShape() throws {
        try expectListed(ListedBase(), Self.base, keyPaths: Self.baseKeyPaths)
        let derived = ListedDerived()
        try expectListed(
            derived,
            Self.base + [Expected(name: "count", type: Int8.self), Expected(name: "tags", type: [String].self)],
            keyPaths: ["count": \.count, "tags": \.tags, "flag": \.flag, "title": \.title, "owner": \.owner])
        try expectListed(ListedBox([1, 2]), [Expected(name: "item", type: [Int].self)], keyPaths: ["item": \.item])
        try expectListed(ListedBox("x"), [Expected(name: "item", type: String.self)], keyPaths: ["item": \.item])
        try expectListed(
            ListedLamp(), [Expected(name: "brightness", type: Int.self), Expected(name: "name", type: String.self)],
            keyPaths: ["brightness": \.brightness, "name": \.name])
    }

    @Test("an actor-isolated class is listed, and read off its storage on its actor")
    @MainActor func isolatedClass() throws {
        let screen = ListedScreen()
        try expectListed(
            screen, [Expected(name: "caption", type: String.self), Expected(name: "level", type: Int.self)],
            keyPaths: ["caption": \.caption, "level": \.level])
        screen.caption = "Ann"
        let listed = try #require(ListedProperties.of(ListedScreen.self))
        #expect(listed.property("caption")?.storage.read(screen) as? String == "Ann")
        screen.level = 4
        screen.level += 1
        #expect(screen.notes == ["will 0->4", "did 0->4", "will 4->5", "did 4->5"])
        #expect(listed.property("level")?.storage.read(screen) as? Int == 5)
    }

    @Test("every property once, in the order of its slot: an override at its own slot")
    func allInSlotOrder() throws {
        let derived = ListedDerived()
        let listed = try #require(ListedProperties.of(ListedDerived.self))
        let all = listed.all(in: derived)
        // Each property once, by slot: an override's is the subclass's, so it is past the superclass's.
        #expect(Set(all.map(\.property.name)) == Set(Self.base.map(\.name) + ["count", "tags"]))
        // The override is found at its own slot, past every slot of the superclass.
        let base = try #require(ListedProperties.of(ListedBase.self)).offsets(in: ListedBase())
        let title = try #require(all.first { $0.property.name == "title" })
        #expect(title.slotOffset > base.max()!)
        #expect(Set(all.map(\.property.name)).count == all.count)
        #expect(all.map(\.slotOffset) == all.map(\.slotOffset).sorted())
    }

    @Test("an override of a property no list names reads the superclass's stored property")
    func overrideOfUnlistedProperty() throws {
        let instrument = ListedInstrument()
        let listed = try #require(ListedProperties.of(ListedInstrument.self))
        let reading = try #require(listed.property("reading", keyed: true))
        #expect(ObjectIdentifier(reading.storage.valueType) == ObjectIdentifier(Double.self))
        #expect(reading.storage.read(instrument) as? Double == 1.5)
        var seen: [Double?] = []
        let token = try instrument.observe(keyPath: "reading", options: [.initial, .new]) { _, change in
            seen.append(change.newValue(as: Double.self))
        }
        instrument.reading = 2.5
        #expect(seen == [1.5, 2.5])
        #expect(reading.storage.read(instrument) as? Double == 2.5)
        #expect(listed.property("serial") == nil)
        withExtendedLifetime(token) {}
    }

    @Test("a class no @KeyValueObservable lists has no list")
    func unlisted() {
        #expect(ListedProperties.of(Unlisted.self) == nil)
    }
}
