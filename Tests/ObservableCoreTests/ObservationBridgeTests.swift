import ObservableCore
import Observation
import Testing

// Models declaring Observation's `Observable` beside `KeyValueObservable`: `@Observed` reports to
// Observation too, as `@Observable` would, so SwiftUI (which tracks with
// `withObservationTracking`) sees them, while KVO-style observers keep their guarantees.

private final class Room: KeyValueObservable, Observable {
    @Observed var name = "den"
}

private final class Prefs: KeyValueObservable, Observable {
    @Observed var volume = 3
    @Observed var room: Room?
    @Observed(skipsEqualValues: true) var theme = "dark"
    @Observed(notifiesAutomatically: false) var manual = 0
    @Observed var tags: [String] = []
    var label: String { "\(theme) \(volume)" }

    func setManual(_ value: Int) {
        willChangeValue(for: \.manual)
        manual = value
        didChangeValue(for: \.manual)
    }
}

// Its accessors leave Observation's calls to the slot (`ObservationCalls.slot`): `access(keyPath:)`
// and `withMutation(keyPath:_:)` are the macro's.
@KeyValueObservable
private final class Panel: Observable {
    var brightness = 5
    var room: Room?
    var tags: [String] = []
    weak var owner: Room?
    @Unobserved var cache = 0
}

/// Runs `read` under Observation's tracking and records each `onChange` (it fires at most once, on
/// the first change to anything read).
private func track(_ log: Recorder<String>, _ name: String, _ read: () -> Void) {
    withObservationTracking(read) { log.append(name) }
}

@Suite("Observation bridge")
struct ObservationBridgeTests {
    @Test("withObservationTracking fires for an @Observed property read, once, and not for one not read")
    func tracksReads() {
        let prefs = Prefs()
        let log = Recorder<String>()
        track(log, "volume") { _ = prefs.volume }
        prefs.theme = "light"  // not read
        #expect(log.all == [])
        prefs.volume = 4
        prefs.volume = 5  // onChange is one-shot
        #expect(log.all == ["volume"])
        track(log, "tags") { _ = prefs.tags }
        prefs.tags.append("a")  // in place, through _modify
        #expect(log.all == ["volume", "tags"])
    }

    @Test("with the class attribute, one registrar for the class; @Unobserved is not tracked")
    func classAttribute() {
        let panel = Panel()
        let log = Recorder<String>()
        track(log, "cache") { _ = panel.cache }
        panel.cache = 1
        #expect(log.all == [])
        track(log, "brightness") { _ = panel.brightness }
        panel.brightness = 6
        #expect(log.all == ["brightness"])
    }

    @Test("with the class attribute, KVO-style observers keep old/new, .prior and order inside Observation's willSet")
    func classAttributeOrderWithKVO() {
        let panel = Panel()
        let log = Recorder<String>()
        track(log, "unobserved set") { _ = panel.brightness }
        panel.brightness = 6
        #expect(panel.brightness == 6)
        let token = panel.observe(\.brightness, options: [.old, .new, .prior]) { _, change in
            log.append(change.isPrior ? "prior \(change.oldValue!)" : "did \(change.oldValue!)->\(change.newValue!)")
        }
        track(log, "observed set") { _ = panel.brightness }
        panel.brightness = 7
        panel.brightness += 1  // in place, through _modify
        track(log, "in place") { _ = panel.brightness }
        panel.brightness += 1
        #expect(
            log.all == [
                "unobserved set", "observed set", "prior 6", "did 6->7", "prior 7", "did 7->8", "in place", "prior 8",
                "did 8->9",
            ])
        #expect(panel.brightness == 9)
        withExtendedLifetime(token) {}
    }

    @Test("with the class attribute, an array mutated in place reports to Observation and keeps its change kind")
    func classAttributeInPlace() {
        let panel = Panel()
        let log = Recorder<String>()
        track(log, "unobserved append") { _ = panel.tags }
        panel.tags.append("a")
        let token = panel.observe(\.tags, options: [.new]) { _, change in
            let ranges = change.indexes?.ranges.map { "\($0.lowerBound)..<\($0.upperBound)" } ?? []
            log.append("\(change.kind) \(ranges.joined(separator: ",")) \(change.newValue!)")
        }
        track(log, "observed append") { _ = panel.tags.count }
        panel.tags.append("b")
        panel.tags.remove(at: 0)
        #expect(
            log.all == [
                "unobserved append", "observed append", "insertion 1..<2 [\"a\", \"b\"]", "removal 0..<1 [\"b\"]",
            ])
        withExtendedLifetime(token) {}
    }

    @Test("with the class attribute, an array appended in place is not copied, unless observed (the old value is kept)")
    func classAttributeAppendsInPlace() {
        let panel = Panel()
        panel.tags.reserveCapacity(16)
        panel.tags.append("a")
        func buffer() -> UnsafePointer<String>? { panel.tags.withUnsafeBufferPointer { $0.baseAddress } }
        let unobserved = buffer()
        panel.tags.append("b")
        #expect(buffer() == unobserved)
        let token = panel.observe(\.tags) { _, _ in }
        let observed = buffer()
        panel.tags.append("c")
        #expect(buffer() != observed)
        #expect(panel.tags == ["a", "b", "c"])
        withExtendedLifetime(token) {}
    }

    @Test("with the class attribute, a weak property is tracked, set and read as itself")
    func classAttributeWeak() {
        let panel = Panel()
        let log = Recorder<String>()
        var room: Room? = Room()
        track(log, "owner") { _ = panel.owner }
        panel.owner = room
        #expect(log.all == ["owner"])
        #expect(panel.owner === room)
        var owners: [String?] = []
        let token = panel.observe(\.owner?.name, options: [.new]) { _, change in owners.append(change.newValue!) }
        room?.name = "hall"
        room = nil
        #expect(panel.owner == nil)
        #expect(owners == ["hall"])
        withExtendedLifetime(token) {}
    }

    @Test("nested reads through several objects are tracked, at every level")
    func nestedReads() {
        let prefs = Prefs()
        let panel = Panel()
        let log = Recorder<String>()
        let first = Room()
        let second = Room()
        prefs.room = first
        panel.room = first
        track(log, "leaf") { _ = prefs.room?.name }
        first.name = "hall"
        track(log, "intermediate") { _ = prefs.room?.name }
        prefs.room = second
        track(log, "panel") { _ = panel.room?.name }
        first.name = "attic"
        #expect(log.all == ["leaf", "intermediate", "panel"])
    }

    @Test("a computed property reading @Observed ones is tracked through them")
    func computed() {
        let prefs = Prefs()
        let log = Recorder<String>()
        track(log, "label") { _ = prefs.label }
        prefs.volume = 9
        #expect(log.all == ["label"])
    }

    @Test("Observation hears every store: equal values skipped by KVO and manual notification too")
    func everyStore() {
        let prefs = Prefs()
        let log = Recorder<String>()
        var kvo: [String] = []
        let tokens = [
            prefs.observe(\.theme, options: [.new]) { _, change in kvo.append("theme \(change.newValue!)") },
            prefs.observe(\.manual, options: [.new]) { _, change in kvo.append("manual \(change.newValue!)") },
        ]
        track(log, "theme") { _ = prefs.theme }
        prefs.theme = "dark"  // equal: KVO skips it; Observation is told of every store
        track(log, "manual") { _ = prefs.manual }
        prefs.setManual(1)
        #expect(log.all == ["theme", "manual"])
        #expect(kvo == ["manual 1"])
        withExtendedLifetime(tokens) {}
    }

    @Test("KVO-style observers keep old/new, .prior and order, inside Observation's willSet")
    func orderWithKVO() {
        let prefs = Prefs()
        let log = Recorder<String>()
        let token = prefs.observe(\.volume, options: [.old, .new, .prior]) { _, change in
            log.append(change.isPrior ? "prior \(change.oldValue!)" : "did \(change.oldValue!)->\(change.newValue!)")
        }
        track(log, "observation willSet") { _ = prefs.volume }
        prefs.volume = 4
        prefs.volume = 5
        #expect(log.all == ["observation willSet", "prior 3", "did 3->4", "prior 4", "did 4->5"])
        withExtendedLifetime(token) {}
    }

    @Test("nested KVO paths still re-wire when an intermediate object of a bridged class is replaced")
    func kvoNestedRewiring() {
        let prefs = Prefs()
        let first = Room()
        let second = Room()
        prefs.room = first
        var names: [String?] = []
        let token = prefs.observe(\.room?.name, options: [.new]) { _, change in names.append(change.newValue!) }
        second.name = "loft"
        prefs.room = second
        first.name = "ignored"
        second.name = "roof"
        #expect(names == ["loft", "roof"])
        withExtendedLifetime(token) {}
    }

    @Test("the Observations async sequence yields the current value, then each change", .timeLimit(.minutes(1)))
    @MainActor
    func observationsSequence() async {
        let prefs = Prefs()
        let volumes = Observations { prefs.volume }
        var iterator = volumes.makeAsyncIterator()
        #expect(await iterator.next() == 3)
        prefs.volume = 4
        #expect(await iterator.next() == 4)
        prefs.room = Room()
        let names = Observations { prefs.room?.name }
        var nameIterator = names.makeAsyncIterator()
        #expect(await nameIterator.next() == "den")
        prefs.room?.name = "hall"
        #expect(await nameIterator.next() == "hall")
    }

    @Test("with the class attribute, the Observations sequence sees each set, observed or not", .timeLimit(.minutes(1)))
    @MainActor
    func classAttributeObservationsSequence() async {
        let panel = Panel()
        let values = Observations { "\(panel.brightness) \(panel.tags)" }
        var iterator = values.makeAsyncIterator()
        #expect(await iterator.next() == "5 []")
        panel.brightness = 6
        #expect(await iterator.next() == "6 []")
        let token = panel.observe(\.brightness) { _, _ in }
        panel.brightness = 7
        #expect(await iterator.next() == "7 []")
        panel.tags.append("a")
        #expect(await iterator.next() == "7 [\"a\"]")
        withExtendedLifetime(token) {}
    }
}
