import ObservableCore
import Testing

/// A value as the tests compare it: optionals unwrapped (a string key path hands values on that
/// way), objects by identity.
private func text(_ value: Any?) -> String {
    guard let value else { return "nil" }
    let mirror = Mirror(reflecting: value)
    if mirror.displayStyle == .optional { return mirror.children.first.map { text($0.value) } ?? "nil" }
    if type(of: value) is AnyClass { return "object \(ObjectIdentifier(value as AnyObject).hashValue)" }
    return "\(value)"
}

/// One notification, from a typed observation or a string one, reduced to comparable text.
private func line(isPrior: Bool, old: Any?, new: Any?) -> String {
    "\(isPrior ? "prior" : "post") \(text(old)) -> \(text(new))"
}

/// The same with the kind and indexes (the twins compare them too).
private func line(_ kind: ObservedChangeKind, _ indexes: RangeSet<Int>?, isPrior: Bool, old: Any?, new: Any?) -> String
{
    "\(kind) \(indexes.map { "\(Array($0.ranges))" } ?? "-") " + line(isPrior: isPrior, old: old, new: new)
}

/// Observes `typed` and the one-property string `key` on `person` with `options`, and collects both.
private final class TwinObservations {
    var typed: [String] = []
    var keyed: [String] = []
    var tokens: [ObservationToken] = []

    func observe<Value>(
        _ person: Person, _ typed: KeyPath<Person, Value>, _ key: String, options: ObservationOptions
    ) throws {
        tokens.append(
            person.observe(typed, options: options) { [unowned self] _, change in
                self.typed.append(
                    line(
                        change.kind, change.indexes, isPrior: change.isPrior, old: change.oldValue, new: change.newValue
                    ))
            })
        tokens.append(
            try person.observe(keyPath: key, options: options) { [unowned self] _, change in
                #expect(change.keyPath == key)
                self.keyed.append(
                    line(
                        change.kind, change.indexes, isPrior: change.isPrior, old: change.oldValue, new: change.newValue
                    ))
            })
    }
}

@Suite("String key paths of one property, observed in the property's list")
struct StringKeyPathDirectTests {
    @Test(
        "each property by name delivers what its typed key path delivers, with every option set, on random sets",
        arguments: [1, 2, 3] as [UInt64])
    func twins(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        for raw in 0..<UInt8(16) {
            let options = ObservationOptions(rawValue: raw)
            let person = Person(name: "Ann")
            let friends = [Person(name: "Bo"), Person(name: "Cy")]
            let twins = TwinObservations()
            try twins.observe(person, \.name, "name", options: options)
            try twins.observe(person, \.age, "age", options: options)
            try twins.observe(person, \.address, "address", options: options)
            try twins.observe(person, \.friend, "friend", options: options)
            try twins.observe(person, \.tags, "tags", options: options)
            var appends = 0
            for _ in 0..<40 {
                switch Int.random(in: 0..<8, using: &random) {
                case 0: person.name = ["Ann", "Bo", ""].randomElement(using: &random)!
                case 1: person.age = Int.random(in: -3...3, using: &random)
                case 2: person.address = Bool.random(using: &random) ? nil : Address(city: "Oslo")
                case 3: person.friend = Bool.random(using: &random) ? nil : friends.randomElement(using: &random)
                case 4:
                    person.tags.append("t\(Int.random(in: 0...9, using: &random))")
                    appends += 1
                case 5: person.tags = []
                case 6: person.age += 1
                default: person.name.append("!")
                }
            }
            #expect(twins.keyed == twins.typed, "options \(options)")
            // Each append was heard as an insertion, by name too.
            #expect(twins.keyed.filter { $0.hasPrefix("insertion ") }.count == appends, "options \(options)")
            // Each set was heard: nothing lost, nothing extra.
            #expect(twins.keyed.count == twins.typed.count)
            #expect(twins.keyed.count >= (options.contains(.initial) ? 5 : 0) + 40)
            withExtendedLifetime((twins.tokens, friends)) {}
        }
    }

    @Test("a weak property by name reads nil once its object is gone")
    func weakProperty() throws {
        let person = Person()
        var seen: [String] = []
        let token = try person.observe(keyPath: "friend", options: [.old, .new]) { _, change in
            seen.append(line(isPrior: change.isPrior, old: change.oldValue, new: change.newValue))
        }
        var friend: Person? = Person(name: "Bo")
        person.friend = friend
        let identity = text(friend)
        friend = nil
        person.friend = nil
        #expect(seen == ["post nil -> \(identity)", "post nil -> nil"])
        withExtendedLifetime(token) {}
    }

    @Test("generic classes, hand-notified properties and a subclass's getter: the values the setter stores")
    func otherShapes() throws {
        var seen: [String] = []
        func record(_ change: KeyedChange) {
            seen.append(
                "\(change.keyPath): " + line(isPrior: change.isPrior, old: change.oldValue, new: change.newValue))
        }
        let optionalBox = GenericBox<String?>("a")
        let intBox = GenericBox(1)
        let account = ManualAccount()
        let meter = DoubledMeter()
        let tokens = [
            try optionalBox.observe(keyPath: "value") { _, change in record(change) },
            try intBox.observe(keyPath: "value", options: [.new, .prior]) { _, change in record(change) },
            try account.observe(keyPath: "balance", options: [.initial, .old, .new]) { _, change in record(change) },
            try meter.observe(keyPath: "level") { _, change in record(change) },
        ]
        optionalBox.value = nil
        optionalBox.value = "b"
        intBox.value = 2
        account.balance = 5
        meter.level = 8
        #expect(
            seen == [
                "balance: post nil -> 0",
                "value: post a -> nil", "value: post nil -> b",
                "value: prior nil -> nil", "value: post nil -> 2",
                "balance: post 0 -> 5",
                "level: post 0 -> 4",
            ])
        withExtendedLifetime(tokens) {}
    }
}
