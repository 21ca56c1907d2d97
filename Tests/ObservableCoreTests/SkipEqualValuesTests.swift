import ObservableCore
import Testing

private final class Player: KeyValueObservable {
    @Observed(skipsEqualValues: true) var status = "idle"
    @Observed(skipsEqualValues: true) var venue: Address?
    @Observed(skipsEqualValues: true) var queue: [Int] = []
    @Observed var volume = 5
    @Observed(skipsEqualValues: true) var level = 0 {
        didSet { didSetRuns += 1 }
    }
    var didSetRuns = 0
}

@Suite("Skipping equal values (opt-in)")
struct SkipEqualValuesTests {
    @Test("an Equatable property skips sets of an equal value; the default still notifies every set")
    func equatable() {
        let player = Player()
        var statuses: [Seen<String>] = []
        var volumes: [Seen<Int>] = []
        let tokens = [
            player.observe(\.status) { _, change in statuses.append(.from(change)) },
            player.observe(\.volume) { _, change in volumes.append(.from(change)) },
        ]
        player.status = "idle"
        player.status = "playing"
        player.status = "playing"
        player.volume = 5
        player.volume = 5
        #expect(statuses == [Seen(phase: "post", old: "idle", new: "playing")])
        #expect(volumes == [Seen(phase: "post", old: 5, new: 5), Seen(phase: "post", old: 5, new: 5)])
        withExtendedLifetime(tokens) {}
    }

    @Test("a class reference skips only the identical object")
    func identity() {
        let player = Player()
        let oslo = Address(city: "Oslo")
        var calls = 0
        let token = player.observe(\.venue) { _, _ in calls += 1 }
        player.venue = nil  // nil to nil: skipped
        player.venue = oslo  // 1
        player.venue = oslo  // skipped
        player.venue = Address(city: "Oslo")  // 2: another object
        player.venue = nil  // 3
        #expect(calls == 3)
        withExtendedLifetime(token) {}
    }

    @Test("the store and the property's own didSet still happen when the value is equal")
    func storeAndObserversStillRun() {
        let player = Player()
        var calls = 0
        let token = player.observe(\.level) { _, _ in calls += 1 }
        player.level = 0
        player.level = 1
        #expect(calls == 1)
        #expect(player.didSetRuns == 2)
        #expect(player.level == 1)
        withExtendedLifetime(token) {}
    }

    @Test("in-place mutations compare the whole value: a no-op is skipped, a change is a setting")
    func inPlace() {
        let player = Player()
        player.queue = [1, 2]
        var seen: [(ObservedChangeKind, [Int]?)] = []
        let token = player.observe(\.queue) { _, change in seen.append((change.kind, change.newValue)) }
        player.queue[0] = 1
        player.queue.append(3)
        #expect(seen.map(\.0) == [.setting])
        #expect(seen.map(\.1) == [[1, 2, 3]])
        withExtendedLifetime(token) {}
    }

}
