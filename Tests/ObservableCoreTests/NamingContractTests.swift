import Testing

@testable import ObservableCore

// The runtime's side of the naming contract (Design.md, "The macro and the runtime agree on names"):
// in classes the macro expanded, reflection finds each property's slot as `_$name` and its storage
// as `_name`, backticks dropped, `weak` references and a subclass's properties included. The macro's
// `NamingContractTests` checks that it generates exactly these names.

final class NamedParts: KeyValueObservable {
    @Observed var name = ""
    @Observed var `default` = false
    @Observed weak var owner: NamedParts?
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
    @Test("the contract's spelling: storage _name, slot _$name")
    func spelling() {
        #expect(ObservedNames.storage(of: "name") == "_name")
        #expect(ObservedNames.slot(of: "name") == "_$name")
        #expect(ObservedNames.property(ofSlot: "_$name") == "name")
        #expect(ObservedNames.property(ofSlot: "_name") == nil)
    }

    @Test("reflection finds every @Observed property's slot and storage under those names, and nothing else")
    func reflectedFields() throws {
        let fields = ReflectedFields.of(NamedParts.self)
        #expect(fields.slotOffsets.count == 3)
        for property in ["name", "default", "owner"] {
            let observed = try #require(fields.observedProperty(property), "\(property)")
            #expect(observed.storageName == "_" + property)
            #expect(fields.slotName(atOffset: observed.slotOffset) == property)
            #expect(fields.storedField(named: "_$" + property)?.offset == observed.slotOffset)
        }
        #expect(fields.observedProperty("plain") == nil)

        let derived = ReflectedFields.of(NamedDerived.self)
        #expect(derived.slotOffsets.count == 2)
        for property in ["title", "subtitle"] {
            let observed = try #require(derived.observedProperty(property), "\(property)")
            #expect(observed.storageName == "_" + property)
            #expect(derived.slotName(atOffset: observed.slotOffset) == property)
        }
    }
}
