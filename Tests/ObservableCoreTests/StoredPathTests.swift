import Testing

@testable import ObservableCore

private final class Links: KeyValueObservable {
    @Observed weak var weakNext: ChainNode?
    @Observed unowned var owner: ChainNode
    @Observed var next: ChainNode?

    init(owner: ChainNode) { self.owner = owner }
}

/// Observed by `laterRegistrations` alone: a suite running alongside that proves the same key path
/// on the same class would replace the stored path the test compares.
private final class LoneNode: KeyValueObservable {
    @Observed var value = 0
    @Observed var next: LoneNode?
    init(_ value: Int = 0) { self.value = value }
}

private final class Outer: KeyValueObservable {
    @Observed var inner = Middle()
}

private final class Middle: KeyValueObservable {
    @Observed var node: ChainNode?
}

private final class Cell<Element>: KeyValueObservable {
    @Observed var item: Element
    @Observed var next: Cell<Element>?

    init(_ item: Element) { self.item = item }
}

/// A plain superclass property whose reads are counted, observed in the subclass by `@Observed override`.
private class CountedDial {
    nonisolated(unsafe) static var reads = 0
    var setting = 0 {
        didSet {}
    }
    var counted: Int {
        get {
            Self.reads += 1
            return setting
        }
        set { setting = newValue }
    }
}

private final class ObservedDial: CountedDial, KeyValueObservable {
    @Observed override var counted: Int
}

private final class DialHolder: KeyValueObservable {
    @Observed var dial: ObservedDial?
}

/// The stored path the proof of `keyPath` on `root`, as it reads now, gives; `nil` when there is none.
private func storedPath<Root: AnyObject, Value>(_ root: Root, _ keyPath: KeyPath<Root, Value>) -> StoredPath? {
    let (_, accesses) = Tracking.evaluate(root, keyPath)
    return PathProof.proof(of: keyPath, root: root, accesses: accesses, valueType: Value.self)?.stored
}

/// `stored` read from `root`: the value and the identities of the lists it read; `nil` if it gave up.
private func read<Value>(_ stored: StoredPath, _ root: AnyObject, as _: Value.Type) -> (Value, [ObjectIdentifier])? {
    var lists: [ObserverList] = []
    guard let end = stored.read(root, recording: &lists) else { return nil }
    return (stored.value(at: end, as: Value.self), lists.map(ObjectIdentifier.init))
}

/// What a tracking evaluation of `keyPath` reads: the value and the identities of the lists.
private func evaluated<Root, Value>(_ root: Root, _ keyPath: KeyPath<Root, Value>) -> (Value, [ObjectIdentifier]) {
    let (value, accesses) = Tracking.evaluate(root, keyPath)
    return (value, accesses.map(\.listID))
}

/// A path proven to be pure navigation is read through its stored fields (`StoredPath`): the same
/// value and the same properties as evaluating its key path with tracking.
@Suite("Paths read through their stored fields")
struct StoredPathTests {
    @Test(
        "random moves and changes: a stored read gives the key path's value and reads what tracking records",
        arguments: Array(UInt64(1)...6))
    func randomReads(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let root = ChainNode()
        let nodes = (0..<4).map { ChainNode($0) }
        root.next = nodes[0]
        let outer = Outer()
        outer.inner.node = nodes[1]
        let chain = try #require(storedPath(root, \.next?.value))
        let nested = try #require(storedPath(outer, \.inner.node?.value))
        let middles = [outer.inner, Middle(), Middle()]
        var nils = 0
        for _ in 0..<200 {
            switch Int.random(in: 0..<6, using: &random) {
            case 0: root.next = Bool.random(using: &random) ? nodes.randomElement(using: &random) : nil
            case 1: outer.inner = middles.randomElement(using: &random)!
            case 2: middles.randomElement(using: &random)!.node = nodes.randomElement(using: &random)
            case 3: middles.randomElement(using: &random)!.node = nil
            default: nodes.randomElement(using: &random)!.value = Int.random(in: 0..<1000, using: &random)
            }
            let chainRead = try #require(read(chain, root, as: Int?.self))
            let chainEvaluated = evaluated(root, \.next?.value)
            #expect(chainRead.0 == chainEvaluated.0)
            #expect(chainRead.1 == chainEvaluated.1)
            let nestedRead = try #require(read(nested, outer, as: Int?.self))
            let nestedEvaluated = evaluated(outer, \.inner.node?.value)
            #expect(nestedRead.0 == nestedEvaluated.0)
            #expect(nestedRead.1 == nestedEvaluated.1)
            if chainRead.0 == nil { nils += 1 }
            // A read that stopped at a nil intermediate has no leaf to deliver from.
            var lists: [ObserverList] = []
            _ = chain.read(root, recording: &lists)
            #expect((chain.leaf(afterReading: lists.count) != nil) == (root.next != nil))
        }
        #expect(nils > 0)
    }

    @Test("a generic class's path is read through its fields too")
    func genericClass() throws {
        let head = Cell("head")
        let cells = [Cell("a"), Cell("b")]
        head.next = cells[0]
        let stored = try #require(storedPath(head, \.next?.item))
        for (index, text) in ["x", "y", "z"].enumerated() {
            head.next = cells[index % 2]
            cells[index % 2].item = text
            let got = try #require(read(stored, head, as: String?.self))
            #expect(got.0 == text)
            #expect(got.1 == evaluated(head, \.next?.item).1)
        }
        head.next = nil
        #expect(try #require(read(stored, head, as: String?.self)).0 == nil)
    }

    @Test("weak and unowned storage is read as its getter reads it: a reference that is gone reads as nil")
    func referenceStorage() throws {
        let owner = ChainNode(7)
        let links = Links(owner: owner)
        links.weakNext = owner
        links.next = owner
        let weak = try #require(storedPath(links, \.weakNext?.value))
        let unowned = try #require(storedPath(links, \.owner.value))
        #expect(try #require(read(weak, links, as: Int?.self)) == (7, evaluated(links, \.weakNext?.value).1))
        #expect(try #require(read(unowned, links, as: Int.self)) == (7, evaluated(links, \.owner.value).1))
        // A weak reference whose object is gone: the reader loads `nil`, as the getter does.
        do {
            let passing = ChainNode(8)
            links.weakNext = passing
            #expect(try #require(read(weak, links, as: Int?.self)).0 == 8)
        }
        #expect(links.weakNext == nil)
        let gone = try #require(read(weak, links, as: Int?.self))
        #expect(gone.0 == nil)
        #expect(gone.1 == evaluated(links, \.weakNext?.value).1)
        // An observation follows the weak reference through the stored path.
        links.weakNext = owner
        var heard: [Int?] = []
        let token = links.observe(\.weakNext?.value, options: [.new]) { _, change in heard.append(change.newValue!) }
        let other = ChainNode(8)
        links.weakNext = other
        owner.value = 9
        other.value = 10
        #expect(heard == [8, 10])
        withExtendedLifetime((token, owner, other)) {}
    }

    @Test("an override's getter hands over no reader: its path is evaluated, and not once more to collect readers")
    func overrideHasNoReader() throws {
        let holder = DialHolder()
        holder.dial = ObservedDial()
        let (_, accesses) = Tracking.evaluate(holder, \.dial?.counted)
        #expect(accesses.map { $0.property?.offersStoredValueReader } == [true, false])
        let before = CountedDial.reads
        let proof = try #require(
            PathProof.proof(of: \DialHolder.dial?.counted, root: holder, accesses: accesses, valueType: Int?.self))
        #expect(proof.stored == nil)
        #expect(CountedDial.reads == before)
        var heard: [Int?] = []
        let token = holder.observe(\.dial?.counted, options: [.new]) { _, change in heard.append(change.newValue!) }
        holder.dial?.counted = 4
        holder.dial = ObservedDial()
        holder.dial?.counted = 6
        #expect(heard == [4, 0, 6])
        withExtendedLifetime(token) {}
    }

    @Test("an object of a subclass ends the read, and the path is evaluated: its getter's value is delivered")
    func subclassObject() throws {
        let dial = MeterPanel()
        dial.meter = OverridableMeter()
        let stored = try #require(storedPath(dial, \.meter?.level))
        var heard: [String] = []
        let token = dial.observe(\.meter?.level, options: [.old, .new]) { _, change in
            heard.append("\(change.oldValue!.map(String.init) ?? "nil")->\(change.newValue!.map(String.init) ?? "nil")")
        }
        let doubled = DoubledMeter()
        doubled.level = 10  // stores 5
        dial.meter = doubled
        #expect(read(stored, dial, as: Int?.self) == nil)
        doubled.level = 4  // stores 2
        dial.meter = OverridableMeter()
        dial.meter?.level = 3
        dial.meter = nil
        #expect(heard == ["0->10", "10->4", "4->0", "0->3", "3->nil"])
        withExtendedLifetime(token) {}
    }

    @Test("a second registration on the class finds the stored path the first proved, and delivers what the first does")
    func laterRegistrations() throws {
        func run(_ root: LoneNode) -> [String] {
            let nodes = [LoneNode(1), LoneNode(2)]
            root.next = nodes[0]
            var heard: [String] = []
            let token = root.observe(\.next?.value, options: [.initial, .old, .new]) { _, change in
                heard.append(
                    "\(change.oldValue.map { $0.map(String.init) ?? "nil" } ?? "-")->\(change.newValue!.map(String.init) ?? "nil")"
                )
            }
            nodes[0].value = 10
            root.next = nodes[1]
            nodes[0].value = 11  // no longer on the path
            nodes[1].value = 20
            root.next = nil
            root.next = nodes[0]
            token.cancel()
            nodes[0].value = 12
            return heard
        }
        let first = run(LoneNode())
        // Not `ProofTable.shared.count`: the suites running alongside add proofs of their own.
        let plan = KeyPathResolutions.shared.existingPlan(
            InternedKeyPath(\LoneNode.next?.value), rootType: LoneNode.self)
        let known = try #require(plan.flatMap { $0.storedPath.load() })
        let later = (0..<3).map { _ in run(LoneNode()) }
        #expect(first == ["-->1", "1->10", "10->2", "2->20", "20->nil", "nil->11"])
        #expect(later.allSatisfy { $0 == first })
        let after = KeyPathResolutions.shared.existingPlan(
            InternedKeyPath(\LoneNode.next?.value), rootType: LoneNode.self
        ).flatMap { $0.storedPath.load() }
        #expect(after === known)
    }
}
