import ObservableCore
import Testing

/// Lets a handler reach a token that is created after the handler.
final class TokenBox {
    var token: ObservationToken?
}

@Suite("Callbacks that act on observations")
struct ReentrancyTests {
    @Test("cancelling inside its own callback: this change is the last one, other observers still get it")
    func cancelSelfInCallback() {
        let person = Person()
        var log: [String] = []
        let box = TokenBox()
        box.token = person.observe(\.age) { _, change in
            log.append("first \(change.newValue!)")
            box.token?.cancel()
        }
        let second = person.observe(\.age) { _, change in log.append("second \(change.newValue!)") }
        person.age = 1
        person.age = 2
        #expect(log == ["first 1", "second 1", "second 2"])
        withExtendedLifetime(second) {}
    }

    @Test("cancelling a later observer inside a callback: it is not called for the change in flight")
    func cancelOtherInCallback() {
        let person = Person()
        var log: [String] = []
        let box = TokenBox()
        let first = person.observe(\.age) { _, change in
            log.append("first \(change.newValue!)")
            box.token?.cancel()
        }
        box.token = person.observe(\.age) { _, change in log.append("second \(change.newValue!)") }
        person.age = 1
        #expect(log == ["first 1"])
        withExtendedLifetime(first) {}
    }

    @Test("cancelling inside an .initial callback")
    func cancelInInitial() {
        let person = Person()
        var log: [String] = []
        let earlier = person.observe(\.age) { _, change in log.append("earlier \(change.newValue!)") }
        let box = TokenBox()
        var tokenExistedDuringInitial: Bool?
        box.token = person.observe(\.age, options: [.initial, .new]) { _, change in
            log.append("initial-observer \(change.newValue!)")
            earlier.cancel()
            if tokenExistedDuringInitial == nil { tokenExistedDuringInitial = box.token != nil }
        }
        // Its own token does not exist yet while `.initial` is delivered from inside `observe`.
        #expect(tokenExistedDuringInitial == false)
        person.age = 1
        #expect(log == ["initial-observer 0", "initial-observer 1"])
        #expect(!earlier.isActive)
    }

    @Test("an observer added inside a callback hears later changes, not the one in flight")
    func addInCallback() {
        let person = Person()
        var log: [String] = []
        var added: [ObservationToken] = []
        let first = person.observe(\.age) { person, change in
            log.append("first \(change.newValue!)")
            if added.isEmpty {
                added.append(person.observe(\.age) { _, change in log.append("added \(change.newValue!)") })
            }
        }
        person.age = 1
        person.age = 2
        #expect(log == ["first 1", "first 2", "added 2"])
        withExtendedLifetime((first, added)) {}
    }

    @Test("observers added and cancelled from callbacks, over many nested changes: exact deliveries")
    func churnInsideCallbacks() {
        // Each change adds one observer and cancels the oldest from inside a callback, and nests
        // one more change: the list is changed while sets read it, at two depths.
        let person = Person()
        var tokens: [ObservationToken] = []
        var calls: [Int: Int] = [:]  // observer number -> calls
        var next = 0
        func addObserver() {
            let number = next
            next += 1
            tokens.append(person.observe(\.age) { _, _ in calls[number, default: 0] += 1 })
        }
        for _ in 0..<4 { addObserver() }
        let driver = person.observe(\.age) { _, change in
            addObserver()
            tokens.removeFirst().cancel()
            if change.newValue! % 2 == 1 { person.age = change.newValue! + 1 }
        }
        for value in stride(from: 1, to: 200, by: 2) { person.age = value }
        // Changes 1, 3, …, 199 are set from outside; each nests the next even one from the driver.
        // The list is o0…o3, the driver, then the observers the driver adds (one per change; change n
        // cancels the oldest). An observer added by an outer change hears the nested change, the rest
        // of the outer one (it is after the driver) and the next nested one before it is cancelled: 3.
        // One added by a nested change hears the next outer and nested changes: 2. The first four hear
        // changes 1 … k + 1; the last two, added by changes 199 and 200, hear 1 and 0.
        func expected(_ observer: Int) -> Int {
            switch observer {
            case 0..<4: observer + 1
            case 202: 1
            case 203: 0
            default: observer % 2 == 0 ? 3 : 2
            }
        }
        #expect(next == 204)
        #expect(tokens.count == 4)
        #expect(tokens.allSatisfy { $0.isActive })
        for observer in 0..<204 {
            #expect(calls[observer, default: 0] == expected(observer), "observer \(observer)")
        }
        withExtendedLifetime(driver) {}
    }

    @Test("setting the property inside its own callback: the nested change is delivered first, to everyone")
    func setInOwnCallback() {
        let person = Person()
        var log: [String] = []
        let clamp = person.observe(\.age) { person, change in
            log.append("clamp \(change.oldValue!)->\(change.newValue!)")
            if change.newValue! > 10 { person.age = 10 }
        }
        let watch = person.observe(\.age) { _, change in log.append("watch \(change.oldValue!)->\(change.newValue!)") }
        person.age = 15
        #expect(person.age == 10)
        // As in Cocoa: the inner set notifies completely before the outer notification continues.
        #expect(log == ["clamp 0->15", "clamp 15->10", "watch 15->10", "watch 0->15"])
        withExtendedLifetime((clamp, watch)) {}
    }

    @Test("replacing the intermediate inside the path's own callback")
    func rewireInCallback() {
        let person = Person()
        person.address = Address(city: "Oslo")
        let replacement = Address(city: "Rome")
        var cities: [String?] = []
        let token = person.observe(\.address?.city, options: [.new]) { person, change in
            cities.append(change.newValue!)
            if change.newValue! == "Bergen" { person.address = replacement }
        }
        person.address?.city = "Bergen"
        replacement.city = "Milan"
        #expect(cities == ["Bergen", "Rome", "Milan"])
        withExtendedLifetime(token) {}
    }

    @Test("releasing the last reference to the observed object from inside its callback")
    func releaseObservedInCallback() {
        final class Holder { var person: Person? = Person() }
        let holder = Holder()
        weak var weakPerson: Person?
        weakPerson = holder.person
        var calls = 0
        let token = holder.person!.observe(\.age) { _, _ in
            calls += 1
            holder.person = nil
        }
        holder.person?.age = 1
        #expect(calls == 1)
        #expect(weakPerson == nil)
        #expect(!token.isActive)
    }

    @Test("observing another property and cancelling from a prior callback")
    func actInPriorCallback() {
        let person = Person()
        var log: [String] = []
        var nameToken: ObservationToken?
        let box = TokenBox()
        box.token = person.observe(\.age, options: [.prior, .new]) { person, change in
            if change.isPrior {
                log.append("prior")
                nameToken = person.observe(\.name) { _, change in log.append("name \(change.newValue!)") }
                box.token?.cancel()
            } else {
                log.append("post \(change.newValue!)")
            }
        }
        person.age = 1
        person.name = "Ann"
        #expect(log == ["prior", "name Ann"])
        withExtendedLifetime(nameToken) {}
    }
}
