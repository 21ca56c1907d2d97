import ObservableCore
import Testing

@KeyValueObservable
private final class Settings {
    var volume = 5
    var theme: String
    weak var delegate: Canary?
    @Unobserved var cache = 0
    @Observed(skipsEqualValues: true) var mode = 1
    let id = 7
    var label: String { "\(theme) \(volume)" }

    init(theme: String) { self.theme = theme }
}

private func isObservable<T: KeyValueObservable>(_: T.Type) -> Bool { true }

/// The class attribute declares the storage of the properties in its braces itself; one inside `#if`
/// gets `@Observed`'s (the macro cannot tell which clause is compiled), observers move either way.
@KeyValueObservable
private final class Conditional {
    @Unobserved var log: [String] = []
    var plain = 0
    #if true
    var inClause = "a"
    #else
    var inClause = 1
    #endif
    var checked = 0 {
        willSet { log.append("willSet \(checked)->\(newValue)") }
        didSet {
            struct Clamp { static let limit = 10 }
            if checked > Clamp.limit { checked = Clamp.limit }
        }
    }
}

@Suite("@KeyValueObservable")
struct ClassAttributeTests {
    @Test("every stored var is observed, with old and new values, and the class conforms")
    func marksStoredVars() {
        let settings = Settings(theme: "light")
        #expect(isObservable(Settings.self))
        var log: [String] = []
        let tokens = [
            settings.observe(\.volume) { _, change in log.append("volume \(change.oldValue!)->\(change.newValue!)") },
            settings.observe(\.theme) { _, change in log.append("theme \(change.oldValue!)->\(change.newValue!)") },
            settings.observe(\.label, options: [.new]) { _, change in log.append("label \(change.newValue!)") },
        ]
        settings.volume = 6
        settings.theme = "dark"
        #expect(log == ["volume 5->6", "label light 6", "theme light->dark", "label dark 6"])
        withExtendedLifetime(tokens) {}
    }

    @Test("properties in the class's braces and in #if clauses are observed alike; observers run once per set")
    func declaredWhereverWritten() {
        let object = Conditional()
        var log: [String] = []
        let tokens = [
            object.observe(\.plain) { _, change in log.append("plain \(change.oldValue!)->\(change.newValue!)") },
            object.observe(\.inClause) { _, change in log.append("inClause \(change.oldValue!)->\(change.newValue!)") },
            object.observe(\.checked) { _, change in log.append("checked \(change.oldValue!)->\(change.newValue!)") },
        ]
        object.plain = 1
        object.inClause += "b"
        object.checked = 12
        #expect(log == ["plain 0->1", "inClause a->ab", "checked 0->10"])
        #expect(object.log == ["willSet 0->12"])
        #expect((object.plain, object.inClause, object.checked) == (1, "ab", 10))
        withExtendedLifetime(tokens) {}
    }

    @Test("weak properties stay weak")
    func weakStaysWeak() {
        let settings = Settings(theme: "")
        var values: [Bool] = []
        let token = settings.observe(\.delegate, options: [.new]) { _, change in values.append(change.newValue! != nil)
        }
        do {
            let canary = Canary()
            settings.delegate = canary
        }
        #expect(settings.delegate == nil)
        #expect(values == [true])
        withExtendedLifetime(token) {}
    }

    @Test("@Unobserved opts out; an explicit @Observed with options is kept as written")
    func optOutAndOptions() {
        let settings = Settings(theme: "")
        var modes = 0
        let cache = settings.observe(\.cache) { _, _ in Issue.record("an @Unobserved property notified") }
        let mode = settings.observe(\.mode) { _, _ in modes += 1 }
        settings.cache = 1
        settings.mode = 1  // equal: skipped
        settings.mode = 2
        #expect(cache.isActive == false)  // nothing it reads is observed
        #expect(modes == 1)
        withExtendedLifetime((cache, mode)) {}
    }
}
