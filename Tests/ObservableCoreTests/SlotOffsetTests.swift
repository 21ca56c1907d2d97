import Observation
import Testing

@testable import ObservableCore

// Shapes whose slots sit at different places: after storage of several sizes, in a superclass and a
// subclass, in a generic class, in a class declaring `Observable` (two access forms), weak storage.
@KeyValueObservable
private class Base: KeyValueObservable {
    @Observed var flag = false
    @Observed var title = ""
}

@KeyValueObservable
private final class Derived: Base {
    @Observed var count: Int8 = 0
    @Observed var tags: [String] = []
    @Observed override var title: String
}

@KeyValueObservable
private final class SlotBox<Element>: KeyValueObservable {
    @Unobserved var padding: (Int8, Int64) = (0, 0)
    @Observed var item: Element
    @Observed weak var owner: Base?

    init(_ item: Element) { self.item = item }
}

@KeyValueObservable
private final class Lamp: Observable {
    var brightness = 5
    var name = ""
}

@KeyValueObservable
private final class Dial: KeyValueObservable, Observable {
    @Observed var angle = 0.0
}

/// The slot offset the getter reported while `keyPath` was evaluated under tracking, and the one
/// the class's list finds for the property's slot, for `name` on `object`'s class.
private func offsets<Root: AnyObject, Value>(
    _ object: Root, _ keyPath: KeyPath<Root, Value>, _ name: String
) -> (reported: Int?, listed: Int?) {
    let (_, accesses) = Tracking.evaluate(object, keyPath)
    let listed = ListedProperties.of(type(of: object))
    let property = listed?.property(name)
    return (accesses.first?.property?.slotOffset ?? nil, property.map { listed!.slotOffset(of: $0, in: object) })
}

@Suite("A getter reports where its slot is")
struct SlotOffsetTests {
    @Test func everyShapeReportsItsSlotField() {
        let derived = Derived()
        let box = SlotBox([1, 2])
        let lamp = Lamp()
        let dial = Dial()
        let cases: [(reported: Int?, listed: Int?)] = [
            offsets(Base(), \.flag, "flag"), offsets(Base(), \.title, "title"),
            offsets(derived, \.flag, "flag"), offsets(derived, \.count, "count"),
            offsets(derived, \.tags, "tags"), offsets(derived, \.title, "title"),
            offsets(box, \.item, "item"), offsets(box, \.owner, "owner"),
            offsets(lamp, \.brightness, "brightness"), offsets(lamp, \.name, "name"),
            offsets(dial, \.angle, "angle"),
        ]
        for (index, (reported, listed)) in cases.enumerated() {
            #expect(reported != nil, "case \(index)")
            #expect(reported == listed, "case \(index)")
        }
        // Each property its own slot.
        let keyPaths: [PartialKeyPath<Derived>] = [\Derived.flag, \Derived.count, \Derived.tags]
        let derivedOffsets = keyPaths.map { keyPath in
            Tracking.evaluate { derived[keyPath: keyPath] }.accesses.first?.property?.slotOffset ?? nil
        }
        #expect(Set(derivedOffsets.compactMap { $0 }).count == 3)
    }

    @Test func aLearntSlotIsTheOneAnObservationIsRegisteredIn() throws {
        let first = Derived()
        let second = Derived()
        let log = Recorder<String>()
        // The first registration learns the slot from the getter; the second goes straight to it.
        let tokens = [first, second].map { object in
            object.observe(\.count, options: [.new]) { object, change in
                log.append("\(object === first ? "first" : "second") \(change.newValue!)")
            }
        }
        let learnt = KeyPathResolutions.shared.knownSlotOffset(\Derived.count, rootType: Derived.self) ?? nil
        #expect(learnt != nil)
        let listed = try #require(ListedProperties.of(Derived.self))
        #expect(learnt == listed.property("count").map { listed.slotOffset(of: $0, in: first) })
        first.count = 1
        second.count = 2
        first.tags = ["x"]
        #expect(log.all == ["first 1", "second 2"])
        withExtendedLifetime(tokens) {}
    }
}
