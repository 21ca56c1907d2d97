import Testing

@testable import ObservableCore

// The runtime's side of the naming contract (Design.md, "The macro and the runtime agree on names"):
// in classes the macro expanded, reflection finds each property's slot as `_$name` (`_$$name` when no
// string key reaches it) and its storage as `_name`, backticks dropped, `weak` references and a subclass's properties included. The macro's
// `NamingContractTests` checks that it generates exactly these names.

final class NamedParts: KeyValueObservable {
    @Observed var name = ""
    @Observed var `default` = false
    @Observed weak var owner: NamedParts?
    @Observed private var hidden = 0
    var plain = 0
}

class NamedBase: KeyValueObservable {
    @Observed var title = ""
}

final class NamedDerived: NamedBase {
    @Observed var subtitle = ""
}

@Suite("The names the runtime finds storage and slot by")
struct NamingContractTests {
    @Test("the contract's spelling: storage _name, slot _$name, or _$$name without a string key")
    func spelling() {
        #expect(ObservedNames.storage(of: "name") == "_name")
        #expect(ObservedNames.slot(of: "name") == "_$name")
        #expect(ObservedNames.hiddenSlot(of: "name") == "_$$name")
        #expect(ObservedNames.property(ofSlot: "_$name") == "name")
        #expect(ObservedNames.property(ofSlot: "_$$name") == "name")
        #expect(ObservedNames.property(ofSlot: "_name") == nil)
        #expect(!ObservedNames.isPropertyName("$name"))
        #expect(!ObservedNames.isPropertyName(""))
        #expect(ObservedNames.isPropertyName("name"))
    }

    @Test("reflection finds every @Observed property's slot and storage under those names, and nothing else")
    func reflectedFields() throws {
        let fields = ReflectedFields.of(NamedParts.self)
        #expect(fields.slotOffsets.count == 4)
        for property in ["name", "default", "owner", "hidden"] {
            let observed = try #require(fields.observedProperty(property), "\(property)")
            #expect(observed.storageName == "_" + property)
            #expect(fields.slotName(atOffset: observed.slotOffset) == property)
            #expect(observed.hasStringKey == (property != "hidden"))
            #expect((fields.observedProperty(property, keyed: true) != nil) == (property != "hidden"))
        }
        #expect(fields.observedProperty("plain") == nil)
        #expect(fields.observedProperty("$hidden", keyed: true) == nil)

        let derived = ReflectedFields.of(NamedDerived.self)
        #expect(derived.slotOffsets.count == 2)
        for property in ["title", "subtitle"] {
            let observed = try #require(derived.observedProperty(property), "\(property)")
            #expect(observed.storageName == "_" + property)
            #expect(derived.slotName(atOffset: observed.slotOffset) == property)
        }
    }
}
