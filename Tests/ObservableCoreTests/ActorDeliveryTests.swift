import Foundation
import Testing

@testable import ObservableCore

/// A model shared between threads the way an app shares one: the app synchronises it (here the
/// tests set it from one thread at a time), so it is declared `@unchecked Sendable`.
private final class Meter: KeyValueObservable, @unchecked Sendable {
    @Observed var level = 0
    @Observed var label = ""
}

/// What a handler on the main actor saw: each new value.
@MainActor
private final class MainActorLog {
    var levels: [Int] = []

    func record(_ change: ObservedChange<Int>) {
        // The runtime's own check (it stops the run if the caller is not on the main actor): the
        // handler's isolation is only declared, a call from the wrong thread would compile.
        MainActor.preconditionIsolated("a change was delivered off the main actor")
        levels.append(change.newValue ?? -1)
    }
}

/// Sets `meter.level` to each of `values` on a thread of its own, and returns when it has.
private func setOnAnotherThread(_ meter: Meter, _ values: [Int]) {
    runConcurrently([{ for value in values { meter.level = value } }])
}

/// Waits, on the caller's actor and letting it run its jobs meanwhile, until `condition` holds or two
/// seconds have passed.
private func waitUntil(
    isolation: isolated (any Actor)? = #isolation, _ condition: () async -> Bool
) async throws {
    let deadline = ContinuousClock.now + .seconds(2)
    while await !condition() && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(1)) }
}

@Suite("Delivery on the observer's actor")
struct ActorDeliveryTests {
    @Test("on the main actor, a set made on it is delivered before the set returns; .initial before observe returns")
    @MainActor
    func setOnTheMainActorIsSynchronous() {
        let meter = Meter()
        let log = MainActorLog()
        let token = meter.observe(\.level, options: [.initial, .new], isolation: MainActor.shared) { log.record($0) }
        #expect(log.levels == [0])
        meter.level = 1
        #expect(log.levels == [0, 1])
        meter.level = 2
        #expect(log.levels == [0, 1, 2])
        withExtendedLifetime(token) {}
    }

    @Test("sets made on other threads are delivered later, on the main actor, every one and in order")
    @MainActor
    func setsElsewhereAreDeliveredOnTheMainActorInOrder() async throws {
        let meter = Meter()
        let log = MainActorLog()
        let token = meter.observe(\.level, isolation: MainActor.shared) { log.record($0) }
        // The main actor is busy in this function until the other thread has made every set: none
        // can have been delivered yet, so none was delivered on the setting thread.
        setOnAnotherThread(meter, Array(1...200))
        #expect(log.levels.isEmpty)
        try await waitUntil { log.levels.count == 200 }
        #expect(log.levels == Array(1...200))
        #expect(token.isActive)
    }

    @Test("a set on the main actor delivers the changes still queued from other threads first, then its own")
    @MainActor
    func setOnTheActorDrainsTheQueueFirst() {
        let meter = Meter()
        let log = MainActorLog()
        let token = meter.observe(\.level, isolation: MainActor.shared) { log.record($0) }
        setOnAnotherThread(meter, [1, 2, 3])
        #expect(log.levels.isEmpty)
        meter.level = 4
        #expect(log.levels == [1, 2, 3, 4])
        withExtendedLifetime(token) {}
    }

    @Test("after cancel() nothing is delivered, not even the changes made before and still queued")
    @MainActor
    func nothingAfterCancel() async throws {
        let meter = Meter()
        let cancelled = MainActorLog()
        let witness = MainActorLog()
        let token = meter.observe(\.level, isolation: MainActor.shared) { cancelled.record($0) }
        // Registered second, so its job is enqueued after the first one's: once it has delivered,
        // the first one's job has run too.
        let witnessToken = meter.observe(\.level, isolation: MainActor.shared) { witness.record($0) }
        setOnAnotherThread(meter, [1, 2, 3])
        token.cancel()
        #expect(!token.isActive)
        try await waitUntil { witness.levels.count == 3 }
        #expect(witness.levels == [1, 2, 3])
        #expect(cancelled.levels.isEmpty)
        meter.level = 4
        #expect(cancelled.levels.isEmpty)
        #expect(witness.levels == [1, 2, 3, 4])
        withExtendedLifetime(witnessToken) {}
    }

    @Test("when the observed object is deallocated, the changes made before are delivered, then the observation ends")
    @MainActor
    func changesBeforeDeallocationAreDelivered() async throws {
        /// Hands the only reference to the meter to the setting thread, which releases it there.
        final class Handoff: @unchecked Sendable { var meter: Meter? }
        let log = MainActorLog()
        let handoff = Handoff()
        weak var released: Meter?
        let token: ObservationToken
        do {
            let meter = Meter()
            released = meter
            token = meter.observe(\.level, isolation: MainActor.shared) { log.record($0) }
            handoff.meter = meter
        }
        runConcurrently([
            {
                let meter = handoff.meter.take()!
                meter.level = 1
                meter.level = 2
            }
        ])
        #expect(released == nil)
        #expect(log.levels.isEmpty)
        #expect(token.isActive)  // until what was queued is delivered
        try await waitUntil { !token.isActive }
        #expect(log.levels == [1, 2])
        #expect(!token.isActive)
    }

    @Test("a change made by a handler is delivered after that handler returns, in order")
    @MainActor
    func handlersOwnSetIsDeliveredAfterIt() {
        let meter = Meter()
        var events: [String] = []
        let token = meter.observe(\.level, isolation: MainActor.shared) { change in
            let level = change.newValue ?? -1
            events.append("begin \(level)")
            if level < 3 { meter.level = level + 1 }
            events.append("end \(level)")
        }
        meter.level = 1
        #expect(events == ["begin 1", "end 1", "begin 2", "end 2", "begin 3", "end 3"])
        withExtendedLifetime(token) {}
    }

    @Test("nested paths, .prior and old values are delivered on the actor as observe delivers them")
    @MainActor
    func optionsAndPathsAsObserve() async throws {
        let person = Person(name: "Ann")
        person.address = Address(city: "Oslo")
        var seen: [Seen<String?>] = []
        let token = person.observe(\.address?.city, options: [.old, .new, .prior], isolation: MainActor.shared) {
            seen.append(Seen.from($0))
        }
        person.address = Address(city: "Rome")
        person.address?.city = "Milan"
        #expect(
            seen == [
                Seen(phase: "prior", old: "Oslo", new: nil), Seen(phase: "post", old: "Oslo", new: "Rome"),
                Seen(phase: "prior", old: "Rome", new: nil), Seen(phase: "post", old: "Rome", new: "Milan"),
            ])
        withExtendedLifetime(token) {}
    }

    @Test("isolation nil (#isolation where no actor is) delivers on the setting thread, as observe does")
    func nilIsolationIsSynchronousOnTheSettingThread() {
        let meter = Meter()
        let seen = Recorder<Int>()
        let token = meter.observe(\.level, isolation: nil) { seen.append($0.newValue ?? -1) }
        setOnAnotherThread(meter, [1, 2])
        #expect(seen.all == [1, 2])
        token.cancel()
        meter.level = 3
        #expect(seen.all == [1, 2])
    }

    @Test("after cancel the handler and what it captured are released")
    @MainActor
    func cancelReleasesTheHandler() async throws {
        let meter = Meter()
        weak var captured: Canary?
        var token: ObservationToken?
        do {
            let canary = Canary()
            captured = canary
            token = meter.observe(\.level, isolation: MainActor.shared) { _ in withExtendedLifetime(canary) {} }
        }
        setOnAnotherThread(meter, [1])
        #expect(captured != nil)
        token = nil
        // The job enqueued by the set holds the observation until it has run (and delivered nothing).
        try await waitUntil { captured == nil }
        #expect(captured == nil)
        _ = token
    }

    @Test("while one thread sets and the main actor delivers, a cancel on a third thread stops delivery at once")
    @MainActor
    func cancelOnAnotherThreadWhileDelivering() async throws {
        let meter = Meter()
        let sets = Counter()
        let cancelReturned = Counter()
        var levels: [Int] = []
        var lateDeliveries = 0
        var witnessed = 0
        let token = meter.observe(\.level, isolation: MainActor.shared) { change in
            if cancelReturned.current != 0 { lateDeliveries += 1 }
            levels.append(change.newValue ?? -1)
        }
        // Registered second: once it has seen the last set, every job of the first has run.
        let witness = meter.observe(\.level, isolation: MainActor.shared) { _ in witnessed += 1 }
        let count = 20_000
        // Off the main actor, so that it delivers while the threads run.
        await Task.detached {
            runConcurrently([
                {
                    for level in 1...count {
                        meter.level = level
                        sets.increment()
                    }
                },
                {
                    while sets.current < count / 4 { sched_yield() }
                    token.cancel()
                    cancelReturned.store(1)
                },
            ])
        }.value
        try await waitUntil { witnessed == count }
        #expect(witnessed == count)
        #expect(lateDeliveries == 0)
        // A prefix of the sets, in order (possibly empty: under load the main actor may not have
        // delivered any before the cancel).
        #expect(levels == (0..<levels.count).map { $0 + 1 })
        #expect(levels.count < count)
        withExtendedLifetime(witness) {}
    }

    @Test("the main thread tells the main actor where it can (Apple platforms), and says nothing elsewhere")
    @MainActor
    func mainThreadIsRecognised() {
        let elsewhere = Recorder<Bool?>()
        runConcurrently([{ elsewhere.append(MainThread.isCurrent) }])
        #if canImport(Darwin)
        #expect(MainThread.isCurrent == true)
        #expect(elsewhere.all == [false])
        #else
        #expect(MainThread.isCurrent == nil)
        #expect(elsewhere.all == [nil])
        #endif
    }
}

/// An actor other than the main actor, observing a meter.
private actor LevelGauge {
    private(set) var levels: [Int] = []
    private var token: ObservationToken?

    func watch(_ meter: Meter) {
        token = meter.observe(\.level, options: [.initial, .new], isolation: self) { change in
            self.levels.append(change.newValue ?? -1)
        }
    }

    /// Sets the level on this actor and returns what had been delivered when the set returned.
    func set(_ meter: Meter, to level: Int) -> [Int] {
        meter.level = level
        return levels
    }

    func stop() {
        token?.cancel()
    }
}

@Suite("Delivery on another actor")
struct OtherActorDeliveryTests {
    @Test("a set made on the actor is delivered before it returns; sets elsewhere later, in order")
    func deliveryOnAnActor() async throws {
        let meter = Meter()
        let gauge = LevelGauge()
        await gauge.watch(meter)
        #expect(await gauge.levels == [0])
        #expect(await gauge.set(meter, to: 1) == [0, 1])
        setOnAnotherThread(meter, Array(2...100))
        try await waitUntil { await gauge.levels.count == 100 }
        #expect(await gauge.levels == Array(0...100))
        await gauge.stop()
        meter.level = 101
        #expect(await gauge.set(meter, to: 102) == Array(0...100))
    }

    @Test("the observation keeps its actor until it ends, as a task on it would, and not after")
    func theActorLivesUntilTheObservationEnds() async throws {
        let meter = Meter()
        weak var released: LevelGauge?
        do {
            let gauge = LevelGauge()
            released = gauge
            await gauge.watch(meter)
        }
        #expect(released != nil)
        await released?.stop()
        #expect(released == nil)
        withExtendedLifetime(meter) {}
    }
}
