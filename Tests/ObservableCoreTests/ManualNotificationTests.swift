import ObservableCore
import Testing

private final class Wallet: KeyValueObservable {
    @Observed(notifiesAutomatically: false) var balance = 0
    @Observed(notifiesAutomatically: false) var owner = ""

    func apply(_ amounts: [Int]) {
        notifyingChange(of: \.balance) {
            for amount in amounts { balance += amount }
        }
    }
}

private final class Holder: KeyValueObservable {
    @Observed var account: Wallet? = Wallet()
}

private struct Refused: Error {}

/// `display` reads an @Observed property and a plain one: changes of `suffix` are announced by hand.
private final class Badge: KeyValueObservable {
    @Observed var name = "Ann"
    var suffix = ""
    var display: String { name + suffix }
}

private final class Contact: KeyValueObservable {
    @Observed var first = "Ann"
    @Observed var last = "Lee"
    var fullName: String { "\(first) \(last)" }
}

@Suite("Manual notification and dependent keys")
struct ManualNotificationTests {
    @Test("a property that does not notify automatically is silent until its owner announces a change")
    func manualProperty() {
        let account = Wallet()
        var seen: [Seen<Int>] = []
        let token = account.observe(\.balance, options: [.prior, .old, .new]) { _, change in seen.append(.from(change))
        }
        account.balance = 5
        #expect(seen.isEmpty)
        account.apply([10, 20, 30])
        #expect(
            seen == [
                Seen(phase: "prior", old: 5, new: nil),
                Seen(phase: "post", old: 5, new: 65),  // one change for the batch
            ])
        withExtendedLifetime(token) {}
    }

    @Test("willChangeValue/didChangeValue pairs nest, and each pair sends one change")
    func nestedPairs() {
        let account = Wallet()
        var log: [String] = []
        let balance = account.observe(\.balance) { _, change in
            log.append("balance \(change.oldValue!)->\(change.newValue!)")
        }
        let owner = account.observe(\.owner) { _, change in log.append("owner \(change.oldValue!)->\(change.newValue!)")
        }
        account.willChangeValue(for: \.balance)
        account.willChangeValue(for: \.owner)
        account.balance = 1
        account.owner = "Bo"
        account.didChangeValue(for: \.owner)
        account.balance = 2
        account.didChangeValue(for: \.balance)
        #expect(log == ["owner ->Bo", "balance 0->2"])
        withExtendedLifetime((balance, owner)) {}
    }

    @Test("didChangeValue without willChangeValue sends nothing and does not crash")
    func unbalancedDidChange() {
        let account = Wallet()
        var calls = 0
        let token = account.observe(\.balance) { _, _ in calls += 1 }
        account.didChangeValue(for: \.balance)
        account.willChangeValue(for: \.balance)
        account.didChangeValue(for: \.balance)
        account.didChangeValue(for: \.balance)
        #expect(calls == 1)
        withExtendedLifetime(token) {}
    }

    @Test("notifyingChange sends the change even when its body throws, and rethrows")
    func throwingBody() {
        let account = Wallet()
        var seen: [Seen<Int>] = []
        let token = account.observe(\.balance) { _, change in seen.append(.from(change)) }
        #expect(throws: Refused.self) {
            try account.notifyingChange(of: \.balance) {
                account.balance = 7
                throw Refused()
            }
        }
        #expect(seen == [Seen(phase: "post", old: 0, new: 7)])
        withExtendedLifetime(token) {}
    }

    @Test("a manual property notifies nested paths through it, and only for its own object")
    func nestedThroughManual() {
        let holder = Holder()
        let other = Holder()
        var seen: [Seen<Int?>] = []
        let token = holder.observe(\.account?.balance) { _, change in seen.append(.from(change)) }
        holder.account?.notifyingChange(of: \.balance) { holder.account?.balance = 3 }
        other.account?.notifyingChange(of: \.balance) { other.account?.balance = 4 }
        #expect(seen == [Seen(phase: "post", old: 0, new: 3)])
        withExtendedLifetime(token) {}
    }

    @Test("a computed property is notified by hand for what it reads that is not @Observed")
    func computedByHand() {
        let badge = Badge()
        let other = Badge()
        var seen: [Seen<String>] = []
        let token = badge.observe(\.display, options: [.prior, .old, .new]) { _, change in seen.append(.from(change)) }
        let otherToken = other.observe(\.display) { _, _ in Issue.record("another object's observation was notified") }
        badge.notifyingChange(of: \.display) { badge.suffix = "!" }
        badge.name = "Bo"  // still automatic through the @Observed property it reads
        #expect(
            seen == [
                Seen(phase: "prior", old: "Ann", new: nil),
                Seen(phase: "post", old: "Ann", new: "Ann!"),
                Seen(phase: "prior", old: "Ann!", new: nil),
                Seen(phase: "post", old: "Ann!", new: "Bo!"),
            ])
        withExtendedLifetime((token, otherToken)) {}
    }

    @Test("dependent keys are automatic: a computed property notifies when anything it reads changes")
    func dependentKeys() {
        let contact = Contact()
        var seen: [Seen<String>] = []
        let token = contact.observe(\.fullName, options: [.initial, .old, .new]) { _, change in
            seen.append(.from(change))
        }
        contact.first = "Bo"
        contact.last = "Kim"
        #expect(
            seen == [
                Seen(phase: "post", old: nil, new: "Ann Lee"),
                Seen(phase: "post", old: "Ann Lee", new: "Bo Lee"),
                Seen(phase: "post", old: "Bo Lee", new: "Bo Kim"),
            ])
        token.cancel()
        contact.first = "Cy"
        #expect(seen.count == 3)
    }
}
