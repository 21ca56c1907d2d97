import Foundation
import ObservableCore
import Testing

private final class Payload: Sendable {}

private final class Slot: KeyValueObservable, @unchecked Sendable {
    @Observed(notifiesAutomatically: false) var payload: Payload? = nil
}

/// The library's per-thread values (`ThreadLocal`): what a thread leaves behind is freed when it ends.
@Suite("Per-thread state")
struct ThreadLocalTests {
    @Test("a thread that ends between willChangeValue and didChangeValue frees the change it announced")
    func endedThreadFreesItsPendingChange() async throws {
        let slot = Slot()
        let token = slot.observe(\.payload) { _, _ in }
        nonisolated(unsafe) weak var announced: Payload?
        let ended = DispatchSemaphore(value: 0)
        let thread = Thread {
            let payload = Payload()
            announced = payload
            slot.payload = payload
            slot.willChangeValue(for: \.payload)  // holds the old value until didChangeValue
            slot.payload = nil
            ended.signal()
        }
        thread.start()
        ended.wait()
        // The thread's destructors run after its body returns: wait for them, at most two seconds.
        let deadline = ContinuousClock.now + .seconds(2)
        while announced != nil && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(announced == nil)
        #expect(token.isActive)
    }

    @Test("evaluations nest on one thread: an observe inside a handler still finds every trigger")
    func nestedEvaluationsRestoreTheOuterOne() {
        let person = Person(name: "Ann")
        person.address = Address(city: "Oslo")
        var inner: [String?] = []
        var innerToken: ObservationToken?
        let outer = person.observe(\.name) { person, _ in
            innerToken = person.observe(\.address?.city) { _, change in inner.append(change.newValue!) }
        }
        person.name = "Bo"
        person.address?.city = "Rome"
        person.address = Address(city: "Paris")
        #expect(inner == ["Rome", "Paris"])
        withExtendedLifetime((outer, innerToken)) {}
    }
}
