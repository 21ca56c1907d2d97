import Testing

@testable import ObservableCore

/// A model no other test observes, so that the messages about it are this suite's own (each message
/// is sent once per process).
@KeyValueObservable
final class DiagnosedModel: KeyValueObservable {
    @Observed var first = 0
    @Observed var second = 0
}

private final class DiagnosedObserver {
    var heard: [String] = []
}

@Suite("Debug warnings of the controller")
struct DiagnosticsTests {
    @Test("observe(_:keyPaths: []) observes nothing and says so once, in debug builds")
    func emptyKeyPaths() {
        let observer = DiagnosedObserver()
        let controller = ObservationController(observer: observer)
        let model = DiagnosedModel()
        let expected = """
            ObservableCore: ObservationController.observe(_:keyPaths:) was given no key paths for a \
            DiagnosedModel: nothing is observed. (Reported once, in debug builds.)
            """
        controller.observe(model, keyPaths: []) { observer, _, _ in observer.heard.append("any") }
        controller.observe(model, keyPaths: [], action: { _ in { _, _ in } })
        model.first = 1
        #expect(observer.heard.isEmpty)
        #expect(controller.observedObjects.isEmpty)
        #if DEBUG
        #expect(Diagnostics.messages.filter { $0 == expected }.count == 1)
        #else
        #expect(!Diagnostics.messages.contains(expected))
        #endif
    }

    @Test("a second handler for one (object, key path) replaces the first, and debug builds say so once")
    func replacedHandler() {
        let observer = DiagnosedObserver()
        let controller = ObservationController(observer: observer)
        let model = DiagnosedModel()
        let replaced = """
            ObservableCore: ObservationController observed \\DiagnosedModel.second of an object it was \
            already observing: the new handler or action replaces the earlier one (one observation per \
            object and key path). (Reported once, in debug builds.)
            """
        controller.observe(model, \.second) { observer, _, _ in observer.heard.append("handler") }
        #expect(!Diagnostics.messages.contains(replaced))
        controller.observe(model, \.second) { observer, _, _ in observer.heard.append("replacement") }
        controller.observe(model, keyPaths: [\.second]) { observer, _, _ in observer.heard.append("latest") }
        model.second = 1
        #expect(observer.heard == ["latest"])
        #if DEBUG
        #expect(Diagnostics.messages.filter { $0 == replaced }.count == 1)
        #else
        #expect(!Diagnostics.messages.contains(replaced))
        #endif
        // Observing again after unobserve replaces nothing: no message about `first`.
        controller.observe(model, \.first) { _, _, _ in }
        controller.unobserve(model, \.first)
        controller.observe(model, \.first) { _, _, _ in }
        #expect(!Diagnostics.messages.contains { $0.contains("DiagnosedModel.first") })
    }

    @Test("a string key path observed again is named as written in the warning")
    func replacedStringKeyPath() throws {
        let observer = DiagnosedObserver()
        let controller = ObservationController(observer: observer)
        let model = DiagnosedModel()
        let replaced = """
            ObservableCore: ObservationController observed "first" of an object it was already observing: \
            the new handler or action replaces the earlier one (one observation per object and key path). \
            (Reported once, in debug builds.)
            """
        try controller.observe(model, keyPath: "first") { observer, _, _ in observer.heard.append("handler") }
        try controller.observe(model, keyPath: "first") { observer, _, _ in observer.heard.append("replacement") }
        model.first = 1
        #expect(observer.heard == ["replacement"])
        #if DEBUG
        #expect(Diagnostics.messages.filter { $0 == replaced }.count == 1)
        #else
        #expect(!Diagnostics.messages.contains(replaced))
        #endif
    }
}
