import ObservableCore
import Testing

@Suite("The end of an observation: onObservedDeallocated")
struct EndEventTests {
    @Test("the end is told once, after the last change, when the observed object is deallocated")
    func endAfterLastChange() {
        var events: [String] = []
        var token: ObservationToken?
        do {
            let person = Person()
            token = person.observe(\.name) { _, change in
                events.append("name \(change.newValue!)")
            } onObservedDeallocated: {
                events.append("end")
            }
            person.name = "Ann"
            person.name = "Bo"
            #expect(events == ["name Ann", "name Bo"])
        }
        #expect(events == ["name Ann", "name Bo", "end"])
        #expect(token?.isActive == false)
        token?.cancel()
        token = nil
        #expect(events == ["name Ann", "name Bo", "end"])
    }

    @Test("a nested path ends with its root, not when an intermediate object is replaced or deallocated")
    func nestedPathEndsWithRoot() {
        var events: [String] = []
        var token: ObservationToken?
        do {
            let person = Person()
            person.address = Address(city: "Oslo")
            token = person.observe(\.address?.city, options: [.new]) { _, change in
                events.append("city \(change.newValue.flatMap { $0 } ?? "nil")")
            } onObservedDeallocated: {
                events.append("end")
            }
            person.address = Address(city: "Rome")  // the first address is deallocated here
            person.address?.city = "Milan"
            person.address = nil
            #expect(events == ["city Rome", "city Milan", "city nil"])
            #expect(token?.isActive == true)
        }
        #expect(events == ["city Rome", "city Milan", "city nil", "end"])
        #expect(token?.isActive == false)
    }

    @Test("every option set, every kind of key path: the end comes once, last", arguments: [false, true])
    func everyForm(prior: Bool) {
        let options: ObservationOptions = prior ? [.old, .new, .prior] : [.old, .new]
        var events: [String] = []
        var tokens: [ObservationToken] = []
        do {
            let person = Person(name: "Ann")
            person.observe(\.age, options: options) { _, change in
                events.append("age \(change.isPrior ? "prior" : "\(change.newValue!)")")
            } onObservedDeallocated: {
                events.append("age end")
            }.store(in: &tokens)
            person.observe(\.summary, options: options) { _, change in
                events.append("summary \(change.isPrior ? "prior" : change.newValue!)")
            } onObservedDeallocated: {
                events.append("summary end")
            }.store(in: &tokens)
            person.age = 3
        }
        let changes =
            prior ? ["age prior", "summary prior", "age 3", "summary Ann (3)"] : ["age 3", "summary Ann (3)"]
        #expect(events.prefix(changes.count).sorted() == changes.sorted())
        #expect(events.dropFirst(changes.count).sorted() == ["age end", "summary end"])
        #expect(tokens.allSatisfy { !$0.isActive })
    }

    @Test("never after cancel(): a cancelled observation has no end to report")
    func noEndAfterCancel() {
        var ends = 0
        do {
            let person = Person()
            let token = person.observe(\.age) { _, _ in
            } onObservedDeallocated: {
                ends += 1
            }
            person.age = 1
            token.cancel()
        }
        #expect(ends == 0)
    }

    @Test("never for an observation that was never active")
    func noEndWhenNeverActive() {
        var ends = 0
        var token: ObservationToken?
        do {
            let person = Person()
            // `scratch` is not @Observed: nothing could ever notify, so the token is inactive at once.
            token = person.observe(\.scratch) { _, _ in
            } onObservedDeallocated: {
                ends += 1
            }
            #expect(token?.isActive == false)
        }
        #expect(ends == 0)
        withExtendedLifetime(token) {}
    }

    @Test("the closures and what they capture are released once the observation has ended")
    func capturesReleasedAfterEnd() {
        weak var released: Canary?
        let token: ObservationToken
        do {
            let canary = Canary()
            released = canary
            let person = Person()
            token = person.observe(\.age) { _, _ in
                withExtendedLifetime(canary) {}
            } onObservedDeallocated: {
                withExtendedLifetime(canary) {}
            }
        }
        #expect(released == nil)
        #expect(!token.isActive)
    }

    @Test("the end may release the token that observed: it runs once, and nothing trips")
    func endReleasesItsOwnToken() {
        final class Holder {
            var token: ObservationToken?
            var ends = 0
        }
        let holder = Holder()
        do {
            let person = Person()
            holder.token = person.observe(\.age) { _, _ in
            } onObservedDeallocated: { [unowned holder] in
                holder.ends += 1
                holder.token?.cancel()
                holder.token = nil
            }
        }
        #expect(holder.ends == 1)
        #expect(holder.token == nil)
    }

    @Test("cancel racing the object's release on another thread: the end is told at most once, never twice")
    func cancelRacingDeallocation() {
        for _ in 0..<500 {
            final class Box: @unchecked Sendable {
                var person: Person? = Person()
                var token: ObservationToken?
            }
            let box = Box()
            let endsHere = Counter()
            box.token = box.person!.observe(\.age) { _, _ in
            } onObservedDeallocated: {
                endsHere.increment()
            }
            runConcurrently([
                { box.token!.cancel() },
                { box.person = nil },
            ])
            #expect(endsHere.current <= 1)
            #expect(box.token?.isActive == false)
        }
    }
}
