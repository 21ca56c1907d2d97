import ObservableCore
import Testing

/// A class holding an `Address` in a `let`: `\.home.city` has one trigger, not on the root.
final class Household: KeyValueObservable {
    let home = Address(city: "Oslo")
}

/// An observer that keeps its token, as a view or view model would.
final class Watcher {
    var token: ObservationToken?
    var heard: [String] = []
}

@Suite("Lifetimes")
struct LifetimeTests {
    @Test("cancel() stops notifications, is idempotent, and flips isActive")
    func cancelIsIdempotent() {
        let person = Person()
        var count = 0
        let token = person.observe(\.age) { _, _ in count += 1 }
        #expect(token.isActive)
        person.age = 1
        token.cancel()
        token.cancel()
        person.age = 2
        #expect(count == 1)
        #expect(!token.isActive)
    }

    @Test("releasing the token ends the observation")
    func tokenDeinitCancels() {
        let person = Person()
        var count = 0
        do {
            let token = person.observe(\.age) { _, _ in count += 1 }
            person.age = 1
            withExtendedLifetime(token) {}
        }
        person.age = 2
        #expect(count == 1)
    }

    @Test("a token dropped immediately observes nothing")
    func discardedToken() {
        let person = Person()
        var count = 0
        _ = person.observe(\.age) { _, _ in count += 1 }
        person.age = 1
        #expect(count == 0)
    }

    @Test("observing never retains the observer")
    func observerNotRetained() {
        let person = Person()
        weak var weakWatcher: Watcher?
        do {
            let watcher = Watcher()
            weakWatcher = watcher
            watcher.token = person.observe(\.name) { [weak watcher] _, change in watcher?.heard.append(change.newValue!)
            }
            person.name = "Ann"
            #expect(watcher.heard == ["Ann"])
        }
        #expect(weakWatcher == nil)
        person.name = "Bob"  // the watcher's token died with it: nothing is called
    }

    @Test("observing never retains the observed object; its deinit ends the observation")
    func observedNotRetained() {
        weak var weakPerson: Person?
        var token: ObservationToken?
        do {
            let person = Person()
            weakPerson = person
            token = person.observe(\.name) { _, _ in }
            #expect(token?.isActive == true)
        }
        #expect(weakPerson == nil)
        #expect(token?.isActive == false)
        token?.cancel()  // after the observed object died: nothing to do, no crash
    }

    @Test("when the observed object dies, everything the handler captured is freed, even while the token lives")
    func handlerFreedWithObservedObject() {
        weak var weakCanary: Canary?
        var tokens: [ObservationToken] = []
        do {
            let person = Person()
            person.address = Address()
            let canary = Canary()
            weakCanary = canary
            tokens.append(person.observe(\.name) { _, _ in withExtendedLifetime(canary) {} })
            tokens.append(person.observe(\.address?.city) { _, _ in withExtendedLifetime(canary) {} })
            tokens.append(person.observe(\.summary) { _, _ in withExtendedLifetime(canary) {} })
        }
        #expect(weakCanary == nil)
        #expect(tokens.allSatisfy { !$0.isActive })
    }

    @Test("cancel frees the handler's captures at once; inside a set of that property, when the set ends")
    func cancelFreesCaptures() {
        let person = Person()
        weak var weakCanary: Canary?
        var token: ObservationToken?
        do {
            let canary = Canary()
            weakCanary = canary
            token = person.observe(\.age) { _, _ in withExtendedLifetime(canary) {} }
        }
        token?.cancel()
        #expect(weakCanary == nil)

        // Cancelled from another observer's callback while the set is delivered: the set still
        // reads the entry, so it lives until the set ends, then it is freed (not leaked).
        var aliveDuringSet: [Bool] = []
        var second: ObservationToken?
        do {
            let canary = Canary()
            weakCanary = canary
            second = person.observe(\.age) { _, _ in withExtendedLifetime(canary) {} }
        }
        let first = person.observe(\.age) { _, _ in
            second?.cancel()
            second = nil
            aliveDuringSet.append(weakCanary != nil)
        }
        person.age = 1
        #expect(aliveDuringSet == [true])
        #expect(weakCanary == nil)
        person.age = 2
        #expect(aliveDuringSet == [true, false])
        withExtendedLifetime(first) {}
    }

    @Test("an observer whose handler captures it strongly is freed when the observed object dies (no cycle)")
    func strongCaptureCycleBroken() {
        weak var weakWatcher: Watcher?
        do {
            let person = Person()
            let watcher = Watcher()
            weakWatcher = watcher
            watcher.token = person.observe(\.name) { _, change in watcher.heard.append(change.newValue!) }
            person.name = "Ann"
            #expect(watcher.heard == ["Ann"])
        }
        #expect(weakWatcher == nil)
    }

    @Test("a path observation ends when its root dies, even if the intermediate lives on")
    func rootDiesIntermediateLives() {
        let address = Address(city: "Oslo")
        weak var weakCanary: Canary?
        var calls = 0
        var token: ObservationToken?
        do {
            let person = Person()
            person.address = address
            let canary = Canary()
            weakCanary = canary
            token = person.observe(\.address?.city) { _, _ in
                calls += 1
                withExtendedLifetime(canary) {}
            }
            address.city = "Bergen"
        }
        address.city = "Rome"
        #expect(calls == 1)
        #expect(weakCanary == nil)
        #expect(token?.isActive == false)
    }

    @Test("a path whose only trigger is not on the root ends at the first change after the root died")
    func rootNotOnPath() {
        weak var weakCanary: Canary?
        var calls = 0
        let home: Address
        var token: ObservationToken?
        do {
            let household = Household()
            home = household.home
            let canary = Canary()
            weakCanary = canary
            token = household.observe(\.home.city) { _, _ in
                calls += 1
                withExtendedLifetime(canary) {}
            }
            home.city = "Bergen"
        }
        #expect(token?.isActive == true)  // nothing on the root could tell it yet
        home.city = "Rome"  // the next change finds the root gone and ends it
        home.city = "Milan"
        #expect(calls == 1)
        #expect(weakCanary == nil)
        #expect(token?.isActive == false)
    }

    @Test("a replaced intermediate object is freed: the path does not keep it")
    func replacedIntermediateFreed() {
        let person = Person()
        weak var weakOld: Address?
        do {
            let old = Address()
            weakOld = old
            person.address = old
        }
        let token = person.observe(\.address?.city) { _, _ in }
        person.address = Address()
        #expect(weakOld == nil)
        withExtendedLifetime(token) {}
    }

    @Test("tokens and observed objects may die in either order")
    func eitherOrder() {
        for observedDiesFirst in [true, false] {
            weak var weakPerson: Person?
            weak var weakCanary: Canary?
            var person: Person? = Person()
            weakPerson = person
            var canary: Canary? = Canary()
            weakCanary = canary
            var token: ObservationToken? = person!.observe(\.address?.city) { [canary] _, _ in
                withExtendedLifetime(canary) {}
            }
            canary = nil
            if observedDiesFirst {
                person = nil
                token = nil
            } else {
                token = nil
                person = nil
            }
            #expect(weakPerson == nil)
            #expect(weakCanary == nil)
            #expect(token == nil)
        }
    }

    @Test(
        "a token that outlived its observation (object died, or cancelled first) stays inert: it never touches a newer observation"
    )
    func staleTokensStayInert() {
        var staleTokens: [ObservationToken] = []
        var heard: [Int] = []
        var live: [(Person, ObservationToken)] = []
        for round in 0..<200 {
            weak var weakCanary: Canary?
            do {
                let person = Person()
                let canary = Canary()
                weakCanary = canary
                let token = person.observe(\.age) { _, _ in withExtendedLifetime(canary) {} }
                if round.isMultiple(of: 2) { token.cancel() }
                staleTokens.append(token)
            }
            #expect(weakCanary == nil)  // the observation and its captures are gone; the token lives on
            // New objects and observations are made while the stale tokens exist, then the stale ones are used.
            let person = Person()
            let token = person.observe(\.age) { _, change in heard.append(change.newValue!) }
            live.append((person, token))
            staleTokens[round].cancel()
            #expect(!staleTokens[round].isActive)
            person.age = round
        }
        #expect(heard == Array(0..<200))
        #expect(live.allSatisfy { $0.1.isActive })
        staleTokens.removeAll()  // deinit of every stale token cancels again: still nothing happens
        live[0].0.age = -1
        #expect(heard.last == -1 && heard.count == 201)
    }

    @Test(
        "a computed path that stops reading any @Observed property ends: inactive token, captures freed, no later call")
    func pathWithoutDependenciesEnds() {
        final class Holder: KeyValueObservable {
            @Observed var marker = 0
            var source: Person?  // not @Observed: replacing it notifies nobody
            var age: Int { source?.age ?? -1 }
        }
        let holder = Holder()
        let person = Person()
        holder.source = person
        weak var weakCanary: Canary?
        var heard: [Int?] = []
        var token: ObservationToken?
        do {
            let canary = Canary()
            weakCanary = canary
            token = holder.observe(\.age) { _, change in
                withExtendedLifetime(canary) {}
                heard.append(change.newValue)
            }
        }
        person.age = 1
        #expect(heard == [1])
        #expect(token?.isActive == true)
        holder.source = nil
        person.age = 2  // re-evaluated: the path now reads no @Observed property
        #expect(heard == [1, -1])
        #expect(token?.isActive == false)
        #expect(weakCanary == nil)
        person.age = 3
        holder.marker = 1
        #expect(heard == [1, -1])
        token = nil
        withExtendedLifetime(holder) {}
    }
}
