import Foundation
import ObservableCore
import Testing

// Stored values follow Swift's rules (the user synchronises the model): in these tests each
// @Observed property has one writer thread and is not read by others while it writes. What runs
// concurrently is what the library owns: the observer lists, tokens, tracking, and cleanup.

@Suite("Threads")
struct ConcurrencyTests {
    @Test("notify and cancel race on one property: no lost notification, none after cancel returned")
    func notifyWhileCancelling() {
        let sets = 3_000
        nonisolated(unsafe) let person = Person()
        let progress = Counter()

        // Alive for the whole run: must see every value, in order.
        let stable = Recorder<Int>()
        let stableToken = person.observe(\.age, options: [.new]) { _, change in stable.append(change.newValue!) }

        // Cancelled while the writer runs: each must see 1...m with no gap, and m must not exceed the
        // writer's progress read right after cancel() returned.
        let doomedCount = 300
        let doomedSeen = (0..<doomedCount).map { _ in Recorder<Int>() }
        let doomedTokens = (0..<doomedCount).map { index in
            person.observe(\.age, options: [.new]) { _, change in doomedSeen[index].append(change.newValue!) }
        }
        let bounds = Locked<[Int: Int]>([:])

        // Registered and cancelled concurrently on another property's list of the same object.
        let churned = Counter()

        runConcurrently([
            {
                for value in 1...sets {
                    progress.store(value)
                    person.age = value
                }
            },
            {
                for index in stride(from: 0, to: doomedCount, by: 2) {
                    // Paced on the writer, so cancellations land all through its run.
                    while progress.current < index * sets / doomedCount { sched_yield() }
                    doomedTokens[index].cancel()
                    let bound = progress.current
                    bounds.withLock { $0[index] = bound }
                }
            },
            {
                for index in stride(from: 1, to: doomedCount, by: 2) {
                    // Paced on the writer, so cancellations land all through its run.
                    while progress.current < index * sets / doomedCount { sched_yield() }
                    doomedTokens[index].cancel()
                    let bound = progress.current
                    bounds.withLock { $0[index] = bound }
                }
            },
            {
                for _ in 0..<500 {
                    let token = person.observe(\.name) { _, _ in }
                    if token.isActive { churned.increment() }
                    token.cancel()
                }
            },
        ])

        #expect(stable.all == Array(1...sets))
        let bound = bounds.withLock { $0 }
        for index in 0..<doomedCount {
            let seen = doomedSeen[index].all
            #expect(
                seen == Array(stride(from: 1, through: seen.last ?? 0, by: 1)), "observation \(index) skipped a value")
            #expect((seen.last ?? 0) <= bound[index]!, "observation \(index) was called after cancel() returned")
        }
        #expect(churned.current == 500)
        withExtendedLifetime(stableToken) {}
    }

    @Test("observations registered while the property is being set: each hears every later value")
    func registerWhileNotifying() {
        let sets = 3_000
        nonisolated(unsafe) let person = Person()
        let progress = Counter()
        let perThread = 150
        // The first observe of a key path on a class reads the property to resolve it, which would
        // race with the writer (README: synchronise the model, observe included); once resolved, an
        // observe goes straight to the property's list and reads nothing. Resolve it first.
        let resolving = person.observe(\.age) { _, _ in }
        resolving.cancel()
        // Two threads register on the property being set; the list changes in place or, while a
        // set reads it, through a copy. Each observation must hear a gapless run ending at the
        // last value, starting no earlier than the writer's progress when registration began.
        let seen = (0..<2 * perThread).map { _ in Recorder<Int>() }
        let startedAt = Locked<[Int: Int]>([:])
        let tokens = Locked<[ObservationToken]>([])
        @Sendable func register(_ indexes: StrideTo<Int>) {
            for index in indexes {
                while progress.current < index * sets / (2 * perThread) { sched_yield() }
                let before = progress.current
                let token = person.observe(\.age, options: [.new]) { _, change in seen[index].append(change.newValue!) }
                startedAt.withLock { $0[index] = before }
                tokens.withLock { $0.append(token) }
            }
        }
        runConcurrently([
            {
                for value in 1...sets {
                    progress.store(value)
                    person.age = value
                }
                // Once every observation is registered, one more: each must hear it.
                while tokens.withLock({ $0.count }) < 2 * perThread { sched_yield() }
                person.age = sets + 1
            },
            { register(stride(from: 0, to: 2 * perThread, by: 2)) },
            { register(stride(from: 1, to: 2 * perThread, by: 2)) },
        ])
        let starts = startedAt.withLock { $0 }
        #expect(tokens.withLock { $0.count } == 2 * perThread)
        for index in 0..<2 * perThread {
            let values = seen[index].all
            let first = values.first ?? sets + 2
            #expect(values.last == sets + 1, "observation \(index) missed the last value")
            #expect(values == Array(first..<sets + 2), "observation \(index) skipped a value")
            #expect(first >= starts[index]!, "observation \(index) heard a value set before it was registered")
        }
    }

    @Test("four threads each observe, rewire and cancel their own graph: exact counts everywhere")
    func independentGraphs() {
        let threads = 4
        let rounds = 300
        let results = Locked<[Int: (direct: [Int], cities: [String?], summaries: Int)]>([:])
        runConcurrently(
            (0..<threads).map { thread in
                {
                    let person = Person(name: "p\(thread)")
                    var direct: [Int] = []
                    var cities: [String?] = []
                    var summaries = 0
                    let tokens = [
                        person.observe(\.age, options: [.new]) { _, change in direct.append(change.newValue!) },
                        person.observe(\.address?.city, options: [.new]) { _, change in cities.append(change.newValue!)
                        },
                        person.observe(\.summary) { _, _ in summaries += 1 },
                    ]
                    for round in 1...rounds {
                        person.age = round
                        if round % 3 == 0 { person.address = Address(city: "c\(round)") }
                        person.address?.city = "x\(round)"
                        // A short-lived observation in the middle: tracking on this thread only.
                        let transient = person.observe(\.address?.street) { _, _ in }
                        transient.cancel()
                    }
                    withExtendedLifetime(tokens) {}
                    results.withLock { $0[thread] = (direct, cities, summaries) }
                }
            })
        let all = results.withLock { $0 }
        for thread in 0..<threads {
            let result = all[thread]!
            #expect(result.direct == Array(1...rounds))
            var expectedCities: [String?] = []
            for round in 1...rounds {
                if round % 3 == 0 { expectedCities.append("c\(round)") }
                if round >= 3 { expectedCities.append("x\(round)") }
            }
            #expect(result.cities == expectedCities)
            #expect(result.summaries == rounds)
        }
    }

    @Test("a controller notified, unobserved and registered into from several threads at once")
    func controllerAcrossThreads() {
        final class SharedObserver: Sendable {}
        let sets = 2_000
        let churn = 400
        let observer = SharedObserver()
        let controller = ObservationController(observer: observer)
        nonisolated(unsafe) let stable = Person()
        nonisolated(unsafe) let doomed = Person()
        let progress = Counter()
        let stableSeen = Recorder<Int>()
        let doomedSeen = Recorder<Int>()
        controller.observe(stable, \.age, options: [.new]) { _, _, change in stableSeen.append(change.newValue!) }
        controller.observe(doomed, \.age, options: [.new]) { _, _, change in doomedSeen.append(change.newValue!) }
        let bound = Counter()
        let churnOK = Counter()

        runConcurrently(
            [
                {
                    for value in 1...sets {
                        progress.store(value)
                        stable.age = value
                        doomed.age = value
                    }
                },
                {
                    while progress.current < sets / 2 { sched_yield() }
                    controller.unobserve(doomed, \.age)
                    bound.store(progress.current)
                },
            ]
                + (0..<2).map { _ in
                    {
                        for _ in 0..<churn {
                            let person = Person()
                            controller.observe(person, \.name) { _, _, _ in }
                            let registered = controller.isObserving(person, \Person.name)
                            controller.unobserve(person)
                            if registered && !controller.isObserving(person, \Person.name) { churnOK.increment() }
                        }
                    }
                })

        #expect(stableSeen.all == Array(1...sets))
        let seen = doomedSeen.all
        #expect(seen == Array(stride(from: 1, through: seen.last ?? 0, by: 1)))
        #expect((seen.last ?? 0) <= bound.current)
        #expect(churnOK.current == 2 * churn)
        #expect(controller.observedObjects.count == 1)
        withExtendedLifetime(observer) {}
    }

    @Test("observed objects and tokens released on different threads at once: everything is freed")
    func lifetimesEndOnDifferentThreads() {
        let iterations = 300
        var freed = 0
        for _ in 0..<iterations {
            let round = raceLifetimes(
                observe: { person, canary in
                    Locked<[ObservationToken]>([
                        person.observe(\.age) { _, _ in withExtendedLifetime(canary) {} },
                        person.observe(\.address?.city) { _, _ in withExtendedLifetime(canary) {} },
                    ])
                },
                roles: { person, tokens in
                    [
                        { person.withLock { $0 = nil } },
                        { tokens.withLock { for token in $0 { token.cancel() } } },
                        { tokens.withLock { $0 = [] } },
                    ]
                })
            if round.freed { freed += 1 }
        }
        #expect(freed == iterations)
    }

    @Test(
        "one token cancelled from two threads while its object dies on a third: each cancel returns with the observation ended, everything freed"
    )
    func cancelsRaceEachOtherAndTheObjectsDeath() {
        let iterations = 400
        var freed = 0
        let endedOnReturn = Counter()
        for index in 0..<iterations {
            // Alternately a direct observation and a path observation (the two kinds a token refers to).
            let round = raceLifetimes(
                observe: { person, canary in
                    index.isMultiple(of: 2)
                        ? person.observe(\.age) { _, _ in withExtendedLifetime(canary) {} }
                        : person.observe(\.address?.city) { _, _ in withExtendedLifetime(canary) {} }
                },
                roles: { person, token in
                    let cancel: @Sendable () -> Void = {
                        token.cancel()
                        if !token.isActive { endedOnReturn.increment() }
                    }
                    return [cancel, cancel, { person.withLock { $0 = nil } }]
                })
            if round.freed && !round.tokens.isActive { freed += 1 }
        }
        #expect(endedOnReturn.current == 2 * iterations)
        #expect(freed == iterations)
    }

    /// One round of a lifetime race: a person shared between threads, observed by `observe` with
    /// handlers that capture a canary; runs `roles` at once, and tells whether the person and the
    /// canary were both freed afterwards.
    private func raceLifetimes<Tokens: Sendable>(
        observe: (Person, Canary) -> Tokens,
        roles: (Locked<Person?>, Tokens) -> [@Sendable () -> Void]
    ) -> (freed: Bool, tokens: Tokens) {
        let person = Locked<Person?>(Person())
        let canary = Canary()
        weak var weakCanary: Canary?
        weakCanary = canary
        weak var weakPerson: Person?
        weakPerson = person.withLock { $0 }
        let tokens = person.withLock { observe($0!, canary) }
        runConcurrently(roles(person, tokens))
        _ = consume canary
        return (weakPerson == nil && weakCanary == nil, tokens)
    }
}
