import Testing

@testable import ObservableCore

/// `LinkStorage`, one link inline and the rest in an array, against an array doing the same
/// operations: same links, same order, and each link released once nothing holds it.
@Suite("Link storage")
struct LinkStorageTests {
    private static let list = ObserverList()
    private static let plan = PathPlan(
        keyPath: InternedKeyPath(\LinkStorageTests.self), leafDelivery: nil, valueType: LinkStorageTests.self)
    private static let observation = PathObservationBase(plan: plan, options: [])

    private static func link() -> PathLink {
        PathLink(list: list, observation: observation)
    }

    private static func identities(_ storage: LinkStorage) -> [ObjectIdentifier] {
        storage.indices.map { ObjectIdentifier(storage[$0]) }
    }

    @Test("appends keep the order, inline and beyond")
    func appends() {
        var storage = LinkStorage()
        var model: [PathLink] = []
        #expect(storage.isEmpty && storage.count == 0)
        for count in 1...5 {
            let link = Self.link()
            storage.append(link)
            model.append(link)
            #expect(storage.count == count)
            #expect(Self.identities(storage) == model.map { ObjectIdentifier($0) })
        }
    }

    @Test("removing any position moves the later links up", arguments: 0..<5)
    func removal(at position: Int) {
        var storage = LinkStorage()
        var model = (0..<5).map { _ in Self.link() }
        for link in model { storage.append(link) }
        let removed = storage.remove(at: position)
        #expect(removed === model.remove(at: position))
        #expect(Self.identities(storage) == model.map { ObjectIdentifier($0) })
    }

    @Test("seeded random appends and removals match an array, and release every removed link")
    func randomOperations() {
        var generator = SeededGenerator(seed: 0x5EED_0021)
        var storage = LinkStorage()
        var model: [PathLink] = []
        var released: [() -> PathLink?] = []
        for _ in 0..<2_000 {
            if model.isEmpty || Int.random(in: 0..<3, using: &generator) > 0 && model.count < 6 {
                let link = Self.link()
                storage.append(link)
                model.append(link)
            } else {
                let position = Int.random(in: 0..<model.count, using: &generator)
                let removed = storage.remove(at: position)
                #expect(removed === model.remove(at: position))
                released.append { [weak removed] in removed }
            }
            #expect(Self.identities(storage) == model.map { ObjectIdentifier($0) })
        }
        #expect(!released.isEmpty)
        #expect(released.allSatisfy { $0() == nil })
    }
}
