import Foundation
import ObservableCore
import Testing

/// A weak reference the stress test checks at the end: every object must have been freed.
final class WeakBox: @unchecked Sendable {
    weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
}

@Suite("Stress (run under ThreadSanitizer in CI)")
struct StressTests {
    // Stored values follow Swift's rules: each writer thread owns its graph's observed properties;
    // other threads observe and cancel on properties nobody writes during the run, or on their own
    // objects. Everything the library owns (lists, links, tokens, controllers, tracking, cleanup) is
    // shared and raced.
    @Test(
        "writers, observers, cancellers, rewiring and last-reference drops, all at once",
        .timeLimit(.minutes(1)))
    func everythingAtOnce() {
        let writers = 2
        let rounds = 2_000
        let doomedPerWriter = 100
        let churnRounds = 600
        nonisolated(unsafe) let people = (0..<writers).map { index -> Person in
            let person = Person(name: "w\(index)")
            person.address = Address(city: "start")
            return person
        }
        let progress = (0..<writers).map { _ in Counter() }

        // Alive for the whole run: must see every change, in order.
        let ages = (0..<writers).map { _ in Recorder<Int>() }
        let cities = (0..<writers).map { _ in Recorder<String>() }
        var stableTokens: [ObservationToken] = []
        for index in 0..<writers {
            stableTokens.append(
                people[index].observe(\.age, options: [.new]) { _, change in ages[index].append(change.newValue!) })
            stableTokens.append(
                people[index].observe(\.address?.city, options: [.new]) { _, change in
                    cities[index].append(change.newValue!!)
                })
        }
        final class SharedObserver: Sendable {}
        let observer = SharedObserver()
        let controller = ObservationController(observer: observer, retainsObserved: false)
        let controllerCounts = (0..<writers).map { _ in Counter() }
        for index in 0..<writers {
            controller.observe(people[index], keyPaths: [\.age]) { _, _, _ in controllerCounts[index].increment() }
        }

        // Cancelled mid-run: a gapless prefix of the values, none after cancel() returned.
        let doomedSeen = (0..<writers).map { _ in (0..<doomedPerWriter).map { _ in Recorder<Int>() } }
        let doomed = (0..<writers).map { index in
            (0..<doomedPerWriter).map { slot in
                people[index].observe(\.age, options: [.new]) { _, change in
                    doomedSeen[index][slot].append(change.newValue!)
                }
            }
        }
        let bounds = Locked<[String: Int]>([:])

        let churned = Counter()
        let handOff = Locked<[ObservationToken]>([])
        let handOffDone = Counter()
        let dropped = Locked<[WeakBox]>([])

        var roles: [@Sendable () -> Void] = []
        for index in 0..<writers {
            roles.append {  // a writer: values, and every fourth round a new intermediate object
                let person = people[index]
                for round in 1...rounds {
                    progress[index].store(round)
                    person.age = round
                    if round % 4 == 0 { person.address = Address(city: "a\(round)") }
                    person.address?.city = "c\(round)"
                }
            }
        }
        roles.append {  // a canceller, paced on the writers
            for slot in 0..<doomedPerWriter {
                for index in 0..<writers {
                    while progress[index].current < slot * rounds / doomedPerWriter { sched_yield() }
                    doomed[index][slot].cancel()
                    let bound = progress[index].current
                    bounds.withLock { $0["\(index)/\(slot)"] = bound }
                }
            }
        }
        roles.append {  // an observer churning on the writers' objects (names are not written) and its own
            for round in 0..<churnRounds {
                let person = people[round % writers]
                let token = person.observe(\.name) { _, _ in }
                let own = Person()
                own.address = Address()
                var heard = 0
                let nested = own.observe(\.address?.city, options: [.new]) { _, _ in heard += 1 }
                own.address = Address()
                own.address?.city = "x"
                controller.observe(own, \.summary) { _, _, _ in }
                if token.isActive && heard == 2 { churned.increment() }
                token.cancel()
                nested.cancel()
                controller.unobserve(own)
            }
        }
        roles.append {  // drops the last references to observed objects while another thread holds their tokens
            for round in 0..<churnRounds {
                let person = Person(name: "d\(round)")
                person.address = Address()
                dropped.withLock {
                    $0.append(WeakBox(person))
                    $0.append(WeakBox(person.address!))
                }
                let tokens = [
                    person.observe(\.age) { _, _ in },
                    person.observe(\.address?.city) { _, _ in },
                ]
                controller.observe(person, \.name) { _, _, _ in }
                person.age = round
                handOff.withLock { $0.append(contentsOf: tokens) }
            }  // each person dies here, on this thread, while its tokens live on the next one
            handOffDone.increment()
        }
        roles.append {  // cancels and releases the handed-off tokens
            while true {
                let finished = handOffDone.current == 1
                let batch = handOff.withLock { tokens -> [ObservationToken] in
                    defer { tokens.removeAll() }
                    return tokens
                }
                for token in batch { token.cancel() }
                if finished && batch.isEmpty { break }
                sched_yield()
            }
        }
        runConcurrently(roles)

        var expectedCities: [String] = []
        for round in 1...rounds {
            if round % 4 == 0 { expectedCities.append("a\(round)") }
            expectedCities.append("c\(round)")
        }
        let bound = bounds.withLock { $0 }
        for index in 0..<writers {
            #expect(ages[index].all == Array(1...rounds))
            #expect(cities[index].all == expectedCities)
            #expect(controllerCounts[index].current == rounds)
            for slot in 0..<doomedPerWriter {
                let seen = doomedSeen[index][slot].all
                #expect(seen == Array(stride(from: 1, through: seen.last ?? 0, by: 1)))
                #expect((seen.last ?? 0) <= bound["\(index)/\(slot)"]!)
            }
        }
        #expect(churned.current == churnRounds)
        #expect(dropped.withLock { $0.allSatisfy { $0.object == nil } })
        #expect(controller.observedObjects.count == writers)
        withExtendedLifetime((stableTokens, observer)) {}
    }
}
