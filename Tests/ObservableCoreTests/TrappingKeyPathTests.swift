import Testing

@testable import ObservableCore

private final class Shelf: KeyValueObservable {
    @Observed var items: [Address] = [Address(city: "Oslo")]
    @Observed var maybe: Address? = Address(city: "Rome")
}

private final class ShelfViewer {
    lazy var observations = ObservationController(observer: self)
}

/// Key paths whose evaluation can trap: the library evaluates a path after each change of what it
/// reads, inside the user's unrelated mutation.
@Suite("Key paths that could trap when re-evaluated")
struct TrappingKeyPathTests {
    @Test(
        "a force-unwrapping path is refused before any evaluation: inactive token, no call, no trap after the optional becomes nil"
    )
    func forceUnwrapRefused() async {
        let shelf = Shelf()
        var calls = 0
        let token = shelf.observe(\.maybe!.city, options: [.initial, .new]) { _, _ in calls += 1 }
        #expect(token.isActive == false)
        shelf.maybe = nil
        shelf.maybe = Address(city: "Bern")
        #expect(calls == 0)

        let viewer = ShelfViewer()
        viewer.observations.observe(shelf, \.maybe!.city) { _, _, _ in calls += 1 }
        #expect(viewer.observations.isObserving(shelf, \Shelf.maybe!.city) == false)
        shelf.maybe = nil
        #expect(calls == 0)

        // The sequence of such a path ends at once.
        var elements = 0
        for await _ in shelf.changes(of: \.maybe!.city) { elements += 1 }
        #expect(elements == 0)
    }

    @Test("the optional-chained path is the one to observe: it follows the optional through nil")
    func optionalChainInstead() {
        let shelf = Shelf()
        var seen: [String?] = []
        let tokens = [
            shelf.observe(\.maybe?.city, options: [.new]) { _, change in seen.append(change.newValue ?? nil) },
            shelf.observe(\.items.first?.city, options: [.new]) { _, change in seen.append(change.newValue ?? nil) },
        ]
        shelf.maybe = nil
        shelf.items.removeAll()
        shelf.items = [Address(city: "Lund")]
        #expect(seen == [nil, nil, "Lund"])
        withExtendedLifetime(tokens) {}
    }

    @Test("a force unwrap is recognised in a key path's description, also beside computed components")
    func recognition() {
        #expect(KeyPathResolutions.forceUnwraps(#"\Model.maybe!.name"#))
        #expect(KeyPathResolutions.forceUnwraps(#"\Model.wrapper.inner!.name"#))
        #expect(!KeyPathResolutions.forceUnwraps(#"\Model.maybe?.name?"#))
        #expect(!KeyPathResolutions.forceUnwraps(#"\Model.dict.<computed 0x00007f (Optional<Item>)>?.name?"#))
        #expect(InternedKeyPath(\Shelf.maybe!.city).forceUnwraps)
        #expect(!InternedKeyPath(\Shelf.items.first?.city).forceUnwraps)
        #expect(!InternedKeyPath(\Shelf.items[0].city).forceUnwraps)  // not recognisable: documented
    }
}
