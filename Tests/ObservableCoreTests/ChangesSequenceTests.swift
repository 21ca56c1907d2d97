import ObservableCore
import Testing

@Suite("Async sequence of changes")
struct ChangesSequenceTests {
    @Test("each set is one element, in order, from the moment iteration starts")
    func elementsInOrder() async {
        let person = Person(name: "Ann")
        person.name = "before iteration: not seen"
        var iterator = person.changes(of: \.name, options: [.old, .new]).makeAsyncIterator()
        person.name = "Bo"
        person.name = "Cy"
        let first = await iterator.next()
        let second = await iterator.next()
        #expect(first.map { Seen.from($0) } == Seen(phase: "post", old: "before iteration: not seen", new: "Bo"))
        #expect(second.map { Seen.from($0) } == Seen(phase: "post", old: "Bo", new: "Cy"))
    }

    @Test(".initial makes the current value the first element; nested paths follow replacements")
    func initialAndNested() async {
        let person = Person()
        person.address = Address(city: "Oslo")
        var iterator = person.changes(of: \.address?.city, options: [.initial, .new]).makeAsyncIterator()
        let replaced = Address(city: "Rome")
        person.address = replaced
        replaced.city = "Milan"
        var cities: [String?] = []
        for _ in 0..<3 { cities.append((await iterator.next())?.newValue ?? nil) }
        #expect(cities == ["Oslo", "Rome", "Milan"])
    }

    @Test("the sequence ends after the buffered elements when the object is deallocated, and does not keep it alive")
    func endsWithObject() async {
        weak var released: Person?
        var iterator: ObservedChangeSequence<Person, Int>.Iterator
        do {
            let person = Person()
            released = person
            iterator = person.changes(of: \.age).makeAsyncIterator()
            person.age = 1
        }
        #expect(released == nil)
        #expect(await iterator.next()?.newValue == 1)
        #expect(await iterator.next() == nil)
    }

    @Test("cancelling the iterating task ends the loop")
    func cancellation() async {
        // The model is shared with the iterating task the way a test can: the sets below happen
        // while that task is suspended in next(), which is what the loop is for.
        nonisolated(unsafe) let person = Person()
        let (started, signal) = AsyncStream.makeStream(of: Int.self)
        let task = Task {
            var ages: [Int] = []
            for await change in person.changes(of: \.age, options: [.initial, .new]) {
                ages.append(change.newValue!)
                signal.yield(ages.count)
            }
            return ages
        }
        var signals = started.makeAsyncIterator()
        _ = await signals.next()  // .initial arrived: the loop is observing
        person.age = 1
        _ = await signals.next()
        task.cancel()
        let ages = await task.value
        #expect(ages == [0, 1])
    }

    @Test(".bufferingNewest(1) keeps only the latest change for a slow consumer")
    func bufferingNewest() async {
        let person = Person()
        var iterator = person.changes(of: \.age, bufferingPolicy: .bufferingNewest(1)).makeAsyncIterator()
        for age in 1...5 { person.age = age }
        #expect(await iterator.next()?.newValue == 5)
        person.age = 6
        #expect(await iterator.next()?.newValue == 6)
    }

    @Test("coalescing: a computed property with .bufferingNewest(1) gives one element per burst of changes it reads")
    func coalescesBursts() async {
        weak var released: Person?
        var iterator: ObservedChangeSequence<Person, String>.Iterator
        do {
            let person = Person(name: "Ann")
            released = person
            iterator = person.changes(of: \.summary, bufferingPolicy: .bufferingNewest(1)).makeAsyncIterator()
            person.name = "Bo"
            person.age = 1
            person.age = 2
            #expect(await iterator.next()?.newValue == "Bo (2)")
            person.age = 3
            person.name = "Cy"
            #expect(await iterator.next()?.newValue == "Cy (3)")
            person.age = 4
        }
        #expect(released == nil)
        #expect(await iterator.next()?.newValue == "Cy (4)")
        #expect(await iterator.next() == nil)  // nothing else was kept of either burst
    }

    @Test("coalescing on one actor, the consumer waiting: at most two elements per burst, the last one current")
    @MainActor
    func coalescesBurstsWhileWaiting() async {
        nonisolated(unsafe) let person = Person(name: "P")
        let (bursts, burstSeen) = AsyncStream.makeStream(of: [String].self)
        // The consumer and the bursts share the main actor, as a view model and its UI do: a burst runs
        // to its end before the consumer runs again.
        let consumer = Task { @MainActor in
            var burst: [String] = []
            let changes = person.changes(
                of: \.summary, options: [.initial, .new], bufferingPolicy: .bufferingNewest(1))
            for await change in changes {
                guard change.newValue != "P (0)" else {
                    burstSeen.yield([])  // the initial value: observing from here on
                    continue
                }
                burst.append(change.newValue!)
                if change.newValue!.hasSuffix("5)") {
                    burstSeen.yield(burst)
                    burst = []
                }
            }
        }
        var seen = bursts.makeAsyncIterator()
        _ = await seen.next()
        for burst in 1...100 {
            for step in 1...5 { person.age = burst * 10 + step }
            let elements = await seen.next() ?? []
            #expect((1...2).contains(elements.count), "burst \(burst): \(elements)")
            #expect(elements.last == "P (\(burst * 10 + 5))")
        }
        consumer.cancel()
        await consumer.value
    }

    @Test("for await over the sequence, leaving the loop with break")
    func forAwait() async {
        nonisolated(unsafe) let person = Person(name: "A")
        let (started, signal) = AsyncStream.makeStream(of: Void.self)
        let task = Task {
            var names: [String] = []
            for await change in person.changes(of: \.name, options: [.initial, .new]) {
                names.append(change.newValue!)
                if names.count == 1 { signal.yield() }
                if names.count == 3 { break }
            }
            return names
        }
        var signals = started.makeAsyncIterator()
        _ = await signals.next()
        person.name = "B"
        person.name = "C"
        person.name = "D"  // after the third element the loop has left: buffered, then dropped
        #expect(await task.value == ["A", "B", "C"])
    }

    @Test("a long unconsumed run comes out whole and in order, also after taking some in between")
    func longRunInOrder() async {
        let person = Person()
        var iterator = person.changes(of: \.age).makeAsyncIterator()
        for age in 1...100 { person.age = age }
        var ages: [Int] = []
        for _ in 0..<40 { ages.append((await iterator.next())?.newValue ?? -1) }
        for age in 101...300 { person.age = age }
        for _ in 0..<260 { ages.append((await iterator.next())?.newValue ?? -1) }
        #expect(ages == Array(1...300))
    }

    @Test(".bufferingNewest(n) keeps the latest n in order; .bufferingOldest(n) keeps the first n; 0 keeps none")
    func boundedPolicies() async {
        let person = Person()
        var newest = person.changes(of: \.age, bufferingPolicy: .bufferingNewest(3)).makeAsyncIterator()
        var oldest = person.changes(of: \.age, bufferingPolicy: .bufferingOldest(3)).makeAsyncIterator()
        for age in 1...100 { person.age = age }
        var kept: [Int] = []
        for _ in 0..<3 { kept.append((await newest.next())?.newValue ?? -1) }
        #expect(kept == [98, 99, 100])
        kept = []
        for _ in 0..<3 { kept.append((await oldest.next())?.newValue ?? -1) }
        #expect(kept == [1, 2, 3])
        person.age = 101  // room again: kept by both
        #expect(await newest.next()?.newValue == 101)
        #expect(await oldest.next()?.newValue == 101)
        var none: ObservedChangeSequence<Person, Int>.Iterator
        do {
            let other = Person()
            none = other.changes(of: \.age, bufferingPolicy: .bufferingNewest(0)).makeAsyncIterator()
            for age in 1...100 { other.age = age }
        }
        #expect(await none.next() == nil)  // nothing kept, and the object is gone
    }

    @Test("cancelling a task waiting in next() gives nil and ends the observation; so does dropping the iterator")
    func cancellingWhileWaitingEnds() async {
        nonisolated(unsafe) let person = Person()
        let waiting = Task {
            var iterator = person.changes(of: \.age).makeAsyncIterator()
            return await iterator.next()?.newValue
        }
        while !person.observationsDescription.contains("1 live") { await Task.yield() }
        try? await Task.sleep(for: .milliseconds(20))  // into next(), suspended
        waiting.cancel()
        #expect(await waiting.value == nil)
        #expect(person.observationsDescription.hasSuffix("no live observations"))
        do {
            var iterator = person.changes(of: \.age).makeAsyncIterator()
            person.age = 1
            #expect(await iterator.next()?.newValue == 1)
            #expect(person.observationsDescription.contains("1 live"))
        }
        #expect(person.observationsDescription.hasSuffix("no live observations"))
    }
}
