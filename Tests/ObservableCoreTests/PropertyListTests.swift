import Observation
import Testing

@testable import ObservableCore

// Shapes of `@KeyValueObservable` classes whose lists must say what reflection finds: storage of
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

@KeyValueObservable
private final class ListedLamp: Observable {
    var brightness = 5
    var name = ""
}

/// For every property the list of `object`'s class names: the list and reflection agree on the slot,
/// the storage's type and ownership, whether it is an existential and whether a string key reaches
/// it; and they find the same slots.
private func expectAgreement(
    _ object: AnyObject, _ names: [String], existentials: Set<String> = [],
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let type: AnyClass = type(of: object)
    let listed = try #require(ListedProperties.of(type), sourceLocation: sourceLocation)
    let reflected = ReflectedFields.of(type)
    #expect(Set(listed.offsets(in: object)) == Set(reflected.slotOffsets), sourceLocation: sourceLocation)
    for name in names {
        for keyed in [false, true] {
            let property = listed.property(name, keyed: keyed)
            let field = reflected.observedProperty(name, keyed: keyed)
            #expect((property == nil) == (field == nil), "\(name) keyed: \(keyed)", sourceLocation: sourceLocation)
            guard let property, let field else { continue }
            #expect(
                listed.slotOffset(of: property, in: object) == field.slotOffset, "\(name)",
                sourceLocation: sourceLocation)
            #expect(property.storage?.valueType == field.storageType, "\(name)", sourceLocation: sourceLocation)
            #expect(property.isStrong == field.storageIsStrong, "\(name)", sourceLocation: sourceLocation)
            // Reflection sees an optional, where the list says what the optional wraps.
            #expect(
                property.flags.contains(.existential) == existentials.contains(name), "\(name)",
                sourceLocation: sourceLocation)
            if field.storageIsExistential { #expect(existentials.contains(name), sourceLocation: sourceLocation) }
            #expect(property.hasStringKey == field.hasStringKey, "\(name)", sourceLocation: sourceLocation)
            #expect(
                listed.name(ofSlotAt: field.slotOffset) == reflected.slotName(atOffset: field.slotOffset),
                sourceLocation: sourceLocation)
        }
    }
    // Names the class does not observe are in neither.
    for name in ["plain", "constant", "missing", "$secret"] {
        #expect(listed.property(name) == nil && reflected.observedProperty(name) == nil, sourceLocation: sourceLocation)
    }
}

@Suite("What @KeyValueObservable lists of a class")
struct PropertyListTests {
    static let baseNames = [
        "flag", "title", "secret", "shared", "unkeyed", "owner", "anchor", "anything", "delegate", "object",
    ]

    @Test("a class's list says what reflection finds, property by property")
    func agreesWithReflection() throws {
        let existentials: Set<String> = ["anything", "delegate", "object"]
        try expectAgreement(ListedBase(), Self.baseNames, existentials: existentials)
        try expectAgreement(ListedDerived(), Self.baseNames + ["count", "tags"], existentials: existentials)
        try expectAgreement(ListedBox([1, 2]), ["item"])
        try expectAgreement(ListedBox("x"), ["item"])
        try expectAgreement(ListedLamp(), ["brightness", "name"])
    }

    @Test("an actor-isolated class is listed, and read off its storage on its actor")
    @MainActor func isolatedClass() throws {
        let screen = ListedScreen()
        try expectAgreement(screen, ["caption", "level"])
        screen.caption = "Ann"
        let listed = try #require(ListedProperties.of(ListedScreen.self))
        #expect(listed.property("caption")?.storage?.read(screen) as? String == "Ann")
        screen.level = 4
        screen.level += 1
        #expect(screen.notes == ["will 0->4", "did 0->4", "will 4->5", "did 4->5"])
        #expect(listed.property("level")?.storage?.read(screen) as? Int == 5)
    }

    @Test("every property once, in the order of its slot: an override at its own slot")
    func allInSlotOrder() throws {
        let derived = ListedDerived()
        let listed = try #require(ListedProperties.of(ListedDerived.self))
        let all = listed.all(in: derived)
        // As reflection orders them: by slot, an override's being the subclass's.
        #expect(all.map(\.property.name) == ObjectProperties.of(ListedDerived.self).map(\.name))
        #expect(all.map(\.slotOffset) == ObjectProperties.of(ListedDerived.self).map(\.slotOffset))
        // The override is found at its own slot, past every slot of the superclass.
        let base = try #require(ListedProperties.of(ListedBase.self)).offsets(in: ListedBase())
        let title = try #require(all.first { $0.property.name == "title" })
        #expect(title.slotOffset > base.max()!)
        #expect(Set(all.map(\.property.name)).count == all.count)
        #expect(all.map(\.slotOffset) == all.map(\.slotOffset).sorted())
    }

    @Test("a class no @KeyValueObservable lists has no list")
    func unlisted() {
        #expect(ListedProperties.of(NamedParts.self) == nil)
    }
}
