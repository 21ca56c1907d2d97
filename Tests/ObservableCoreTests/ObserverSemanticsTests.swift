import ObservableCore
import Testing

/// One property of `ObserverShapes`, reachable on either twin.
private struct ShapeProperty: Sendable {
    let name: String
    let keyPath: (ReferenceWritableKeyPath<ObservedShapes, Int> & Sendable)?
    let read: @Sendable (any ObserverShapes) -> Int?
    let write: @Sendable (any ObserverShapes, Int) -> Void
    /// An in-place mutation (`_modify`): `false` when it stored nothing (an optional chain on `nil`).
    let add: @Sendable (any ObserverShapes, Int) -> Bool

    /// `read` is a get; `access` an in-place (`inout`) access, which is a set.
    static func int(
        _ name: String, _ keyPath: ReferenceWritableKeyPath<ObservedShapes, Int> & Sendable,
        read: @escaping @Sendable (any ObserverShapes) -> Int,
        _ access: @escaping @Sendable (any ObserverShapes, (inout Int) -> Void) -> Void
    ) -> ShapeProperty {
        ShapeProperty(
            name: name, keyPath: keyPath, read: read,
            write: { shapes, value in access(shapes) { $0 = value } },
            add: { shapes, amount in
                access(shapes) { $0 += amount }
                return true
            })
    }
}

private let shapeProperties: [ShapeProperty] = [
    .int("nestedFunctionParameter", \.nestedFunctionParameter, read: { $0.nestedFunctionParameter }) {
        $1(&$0.nestedFunctionParameter)
    },
    .int("closureParameter", \.closureParameter, read: { $0.closureParameter }) { $1(&$0.closureParameter) },
    .int("unconditionalStore", \.unconditionalStore, read: { $0.unconditionalStore }) { $1(&$0.unconditionalStore) },
    .int("storeLater", \.storeLater, read: { $0.storeLater }) { $1(&$0.storeLater) },
    .int("localShadow", \.localShadow, read: { $0.localShadow }) { $1(&$0.localShadow) },
    .int("inoutHelper", \.inoutHelper, read: { $0.inoutHelper }) { $1(&$0.inoutHelper) },
    .int("deferredStore", \.deferredStore, read: { $0.deferredStore }) { $1(&$0.deferredStore) },
    .int("nestedType", \.nestedType, read: { $0.nestedType }) { $1(&$0.nestedType) },
    .int("namedParameter", \.namedParameter, read: { $0.namedParameter }) { $1(&$0.namedParameter) },
    .int("willSetStore", \.willSetStore, read: { $0.willSetStore }) { $1(&$0.willSetStore) },
    .int("selfSpellings", \.selfSpellings, read: { $0.selfSpellings }) { $1(&$0.selfSpellings) },
    ShapeProperty(
        name: "shorthand", keyPath: nil, read: { $0.shorthand },
        write: { shapes, value in shapes.shorthand = value < -15 ? nil : value },
        add: { shapes, amount in
            guard shapes.shorthand != nil else { return false }
            shapes.shorthand? += amount
            return true
        }),
]

@Suite("@Observed keeps what the property's own willSet/didSet mean")
struct ObserverSemanticsTests {
    @Test("the shapes of issue 17, one by one, as plain Swift runs them")
    func namedShapes() {
        let shapes = ObservedShapes()
        var heard: [String] = []
        let tokens = [
            shapes.observe(\.closureParameter) { _, change in
                heard.append("closureParameter \(change.oldValue!)->\(change.newValue!)")
            },
            shapes.observe(\.storeLater) { _, change in
                heard.append("storeLater \(change.oldValue!)->\(change.newValue!)")
            },
            shapes.observe(\.unconditionalStore) { _, change in
                heard.append("unconditionalStore \(change.oldValue!)->\(change.newValue!)")
            },
        ]

        // A parameter of a nested function named like the property is that parameter: doubled(5) is 10.
        shapes.nestedFunctionParameter = 1
        #expect(shapes.log == ["nestedFunctionParameter 7->1 doubled(5)=10"])

        // A closure parameter of the same name elsewhere in the body does not stop the direct store:
        // didSet runs once and the set notifies once, with the clamped value.
        shapes.closureParameter = 50
        #expect(shapes.closureParameter == 10)
        #expect(heard == ["closureParameter 0->10"])

        // Unconditional store of the property inside its own didSet: once, no recursion.
        shapes.unconditionalStore = -4
        #expect(shapes.unconditionalStore == 0)
        #expect(heard.last == "unconditionalStore 0->0")

        // A closure made in didSet and run later goes through the setter: observers hear it.
        shapes.storeLater = 1
        #expect(shapes.pending.count == 1)
        shapes.pending.removeFirst()()
        #expect(shapes.storeLater == 99)
        #expect(heard.suffix(2) == ["storeLater 0->1", "storeLater 1->99"])
        withExtendedLifetime(tokens) {}
    }

    @Test("a key path literal in the property's own observers names the property (Cocoa's manual-notification idiom)")
    func keyPathsInObservers() {
        let account = ManualAccount()
        var heard: [Seen<Int>] = []
        let token = account.observe(\.balance, options: [.old, .new, .prior]) { _, change in heard.append(.from(change))
        }
        account.balance = 5
        #expect(heard == [Seen(phase: "prior", old: 0, new: nil), Seen(phase: "post", old: 0, new: 5)])
        withExtendedLifetime(token) {}
    }

    @Test(
        "random operations: the @Observed twin logs, stores and reads what the plain twin does, and notifies once per setter run; one observation of the whole object hears what the properties' own do",
        arguments: [UInt64(1), 2, 3, 17, 1_000])
    func randomTwins(seed: UInt64) {
        let observed = ObservedShapes()
        runTwins(seed: seed, observed) { property, record in
            if let keyPath = property.keyPath {
                return observed.observe(keyPath) { _, change in record(change.oldValue, change.newValue) }
            }
            return observed.observe(\.shorthand) { _, change in record(change.oldValue ?? nil, change.newValue ?? nil) }
        }
    }

    @Test(
        "random operations: the twin @KeyValueObservable lists (its observers run by the setter) logs, stores and reads what the plain twin does; string keys and the whole object hear each setter run",
        arguments: [UInt64(1), 2, 3, 17, 1_000])
    func randomListedTwins(seed: UInt64) throws {
        let listed = ListedShapes()
        runTwins(seed: seed, listed) { property, record in
            try! listed.observe(keyPath: property.name) { _, change in
                record(change.oldValue(as: Int.self), change.newValue(as: Int.self))
            }
        }
    }

    /// Random sets, in-place additions and deferred stores on the plain twin and `observed` alike,
    /// each property of `observed` observed by `observe` and the whole object by `observeProperties`.
    private func runTwins<Twin: ObserverShapes & ObservedPropertyListing>(
        seed: UInt64, _ observed: Twin,
        observe: (ShapeProperty, @escaping (Int?, Int?) -> Void) -> ObservationToken
    ) {
        var random = SeededGenerator(seed: seed)
        let plain = PlainShapes()
        // What each observation of the observed twin heard, per property: (old, new).
        let heard = Locked<[String: [(Int?, Int?)]]>([:])
        // Every change in the order heard: by the properties' observations, and by one of the whole object.
        let inOrder = Locked<[String]>([])
        let wholeInOrder = Locked<[String]>([])
        var tokens: [ObservationToken] = []
        for property in shapeProperties {
            let name = property.name
            func record(_ old: Int?, _ new: Int?) {
                heard.withLock { $0[name, default: []].append((old, new)) }
                inOrder.withLock {
                    $0.append("\(name) \(old.map(String.init) ?? "nil")->\(new.map(String.init) ?? "nil")")
                }
            }
            tokens.append(observe(property, record))
        }
        tokens.append(
            observed.observeProperties { _, change in
                let old = change.oldValue(as: Int.self).map(String.init) ?? "nil"
                let new = change.newValue(as: Int.self).map(String.init) ?? "nil"
                wholeInOrder.withLock { $0.append("\(change.name) \(old)->\(new)") }
            })
        var setterRuns = 0
        for step in 0..<400 {
            let property = shapeProperties[Int.random(in: 0..<shapeProperties.count, using: &random)]
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                let value = Int.random(in: -20...20, using: &random)
                property.write(plain, value)
                property.write(observed, value)
                setterRuns += 1
            case 1:
                let amount = Int.random(in: -12...12, using: &random)
                let stored = property.add(plain, amount)
                #expect(property.add(observed, amount) == stored)
                if stored { setterRuns += 1 }
            default:
                #expect(plain.pending.count == observed.pending.count)
                if !plain.pending.isEmpty {
                    plain.pending.removeFirst()()
                    observed.pending.removeFirst()()
                    setterRuns += 1
                }
            }
            #expect(observed.log == plain.log, "seed \(seed), step \(step)")
            for each in shapeProperties {
                #expect(each.read(observed) == each.read(plain), "\(each.name), seed \(seed), step \(step)")
            }
            if observed.log != plain.log { break }
        }
        let all = heard.withLock { $0 }
        #expect(all.values.map(\.count).reduce(0, +) == setterRuns)
        #expect(wholeInOrder.withLock { $0 } == inOrder.withLock { $0 }, "seed \(seed)")
        // Each property's changes chain up, and the last one carries the current value.
        for property in shapeProperties {
            let changes = all[property.name] ?? []
            var current: Int? = property.name == "shorthand" ? nil : property.name == "nestedFunctionParameter" ? 7 : 0
            for (old, new) in changes {
                #expect(old == current, "\(property.name), seed \(seed)")
                current = new
            }
            #expect(current == property.read(observed), "\(property.name), seed \(seed)")
        }
        withExtendedLifetime(tokens) {}
    }
}
