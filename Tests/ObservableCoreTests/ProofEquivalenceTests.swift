import ObservableCore
import Testing

final class ChainNode: KeyValueObservable {
    @Observed var value = 0
    @Observed var next: ChainNode?
    /// The same path as `\.next?.value`, through a computed property: never proven, always evaluated.
    var nextValue: Int? { next?.value }
    init(_ value: Int = 0) { self.value = value }
}

/// What one observation of the path heard: "old->new" with `nil` spelled out.
private func describe(_ change: ObservedChange<Int?>) -> String {
    func text(_ value: Int??) -> String { value.map { $0.map(String.init) ?? "nil" } ?? "-" }
    return "\(text(change.oldValue))->\(text(change.newValue))"
}

/// Observes the path proven (`\.next?.value`: leaf changes come from the setter) or evaluated.
private func observePath(_ root: ChainNode, proven: Bool, _ heard: @escaping (String) -> Void) -> ObservationToken {
    proven
        ? root.observe(\.next?.value) { _, change in heard(describe(change)) }
        : root.observe(\.nextValue) { _, change in heard(describe(change)) }
}

/// A path proven to be pure navigation delivers exactly what evaluating it delivers (`PathProof` is
/// an optimisation), under every re-entrant order of sets.
@Suite("Proven paths deliver what evaluated ones do")
struct ProofEquivalenceTests {
    @Test(
        "a path moved off an object while that object's change is delivered does not hear that change",
        arguments: [true, false])
    func movedDuringDelivery(proven: Bool) {
        let root = ChainNode()
        let first = ChainNode(0)
        let other = ChainNode(7)
        root.next = first
        var moved = false
        let mover = first.observe(\.value) { _, _ in
            if !moved {
                moved = true
                root.next = other
            }
        }
        var heard: [String] = []
        let token = observePath(root, proven: proven) { heard.append($0) }
        first.value = 1
        first.value = 2  // no longer on the path
        other.value = 8
        #expect(heard == ["1->7", "7->8"])
        withExtendedLifetime((mover, token)) {}
    }

    @Test(
        "a set overtaken by a nested set of the same property delivers the value now, not the stale one",
        arguments: [true, false])
    func overtakenByNestedSet(proven: Bool) {
        let root = ChainNode()
        let first = ChainNode(0)
        root.next = first
        let bumper = first.observe(\.value) { node, change in
            if change.newValue == 1 { node.value = 5 }
        }
        var heard: [String] = []
        let token = observePath(root, proven: proven) { heard.append($0) }
        first.value = 1
        #expect(heard == ["1->5", "0->5"])
        withExtendedLifetime((bumper, token)) {}
    }

    @Test(
        "random re-entrant programs: the proven path hears what the evaluated one hears, and ends on the current value",
        arguments: Array(UInt64(11)...40))
    func randomPrograms(seed: UInt64) {
        func run(proven: Bool) -> (heard: [String], final: Int?) {
            var random = SeededGenerator(seed: seed)
            let root = ChainNode()
            let nodes = (0..<4).map { ChainNode($0 * 10) }
            root.next = nodes[0]
            var depth = 0
            func act() {
                guard depth < 3 else { return }
                depth += 1
                defer { depth -= 1 }
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<2: root.next = Bool.random(using: &random) ? nodes.randomElement(using: &random) : nil
                case 2..<7: nodes.randomElement(using: &random)!.value = Int.random(in: 0..<100, using: &random)
                default: break
                }
            }
            // Callbacks that act, registered before and after the path's observation.
            var tokens = nodes.map { node in node.observe(\.value) { _, _ in act() } }
            tokens.append(root.observe(\.next) { _, _ in act() })
            var heard: [String] = []
            tokens.append(observePath(root, proven: proven) { heard.append($0) })
            tokens += nodes.map { node in node.observe(\.value) { _, _ in act() } }
            for _ in 0..<300 { act() }
            withExtendedLifetime(tokens) {}
            return (heard, root.next?.value)
        }
        let proven = run(proven: true)
        let evaluated = run(proven: false)
        #expect(proven.heard == evaluated.heard)
        #expect(proven.final == evaluated.final)
        let last = proven.heard.last?.split(separator: ">").last.map(String.init)
        #expect(last == proven.final.map(String.init) ?? "nil")
        #expect(proven.heard.count > 50)
    }
}
