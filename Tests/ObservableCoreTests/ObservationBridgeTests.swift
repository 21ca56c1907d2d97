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

@KeyValueObservable
private final class Panel: Observable {
    var brightness = 5
    var room: Room?
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
}
