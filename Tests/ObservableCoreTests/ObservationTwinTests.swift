import ObservableCore
import Observation
import Testing

// The same random operations on an `@Observable` class hierarchy and its twin migrated as the README
// says (`@KeyValueObservable`, `Observable` declared on the root class), with
// `withObservationTracking` re-armed on random reads before each operation: `onChange` must fire for
// the same operations on both, apart from the documented difference. `@Observable`'s setter skips a
// value equal to the current one (`==` for an `Equatable` type, `===` for an object); this package
// tells Observation of every store, as it tells its own observers.

@Observable class TwinRoot {
    var count = 0
    var name = ""
}

@Observable final class TwinModel: TwinRoot {
    var items: [Int] = []
    var child: TwinChild?
    var owner = TwinChild()
}

@Observable final class TwinChild {
    var leaf = 0
}

@KeyValueObservable class KVTwinRoot: Observable {
    var count = 0
    var name = ""
}

@KeyValueObservable final class KVTwinModel: KVTwinRoot {
    var items: [Int] = []
    var child: KVTwinChild?
    var owner = KVTwinChild()
}

@KeyValueObservable final class KVTwinChild: Observable {
    var leaf = 0
}

/// One side of the twins, reached through closures so that one operation applies to either.
private struct TwinSide {
    let read: [() -> Void]
    let operations: [(Int) -> Void]
    let values: () -> [String]
}

/// What the twins share, so that one function makes the operations of either.
private protocol TwinShape: AnyObject {
    associatedtype Child: AnyObject & Equatable
    var count: Int { get set }
    var name: String { get set }
    var items: [Int] { get set }
    var child: Child? { get set }
    var owner: Child { get set }
    static func leaf(of child: Child) -> Int
    static func setLeaf(of child: Child, to value: Int)
}

extension TwinModel: TwinShape {
    static func leaf(of child: TwinChild) -> Int { child.leaf }
    static func setLeaf(of child: TwinChild, to value: Int) { child.leaf = value }
}

extension KVTwinModel: TwinShape {
    static func leaf(of child: KVTwinChild) -> Int { child.leaf }
    static func setLeaf(of child: KVTwinChild, to value: Int) { child.leaf = value }
}

private func side<Model: TwinShape>(_ model: Model, _ children: [Model.Child]) -> TwinSide {
    model.owner = children[0]
    return TwinSide(
        read: [
            { _ = model.count }, { _ = model.name }, { _ = model.items }, { _ = model.child },
            { _ = model.child.map(Model.leaf) }, { _ = model.owner }, { _ = Model.leaf(of: model.owner) },
        ],
        operations: [
            { model.count = $0 }, { model.name = "n\($0)" }, { model.items = Array(repeating: $0, count: abs($0) % 3) },
            { model.child = $0 < 0 ? nil : children[$0 % 3] },
            { value in model.child.map { Model.setLeaf(of: $0, to: value) } },
            { model.owner = children[abs($0) % 3] }, { Model.setLeaf(of: model.owner, to: $0) },
            { model.count += $0 }, { model.items.append($0) }, { model.name += $0 > 0 ? "x" : "" },
        ],
        values: {
            [
                "\(model.count)", model.name, "\(model.items)",
                "\(model.child.map { children.firstIndex(of: $0)! } ?? -1)",
                "\(model.child.map(Model.leaf) ?? -1)", "\(children.firstIndex(of: model.owner)!)",
                "\(children.map(Model.leaf))",
            ]
        })
}

extension TwinChild: Equatable {
    static func == (lhs: TwinChild, rhs: TwinChild) -> Bool { lhs === rhs }
}

extension KVTwinChild: Equatable {
    static func == (lhs: KVTwinChild, rhs: KVTwinChild) -> Bool { lhs === rhs }
}

@Suite("Observation twins: @Observable and the migrated @KeyValueObservable class")
struct ObservationTwinTests {
    @Test("random operations fire onChange on both twins alike, but for equal values set", arguments: [1, 2, 3, 4])
    func randomOperations(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let observableChildren = [TwinChild(), TwinChild(), TwinChild()]
        let kvoChildren = [KVTwinChild(), KVTwinChild(), KVTwinChild()]
        let observable = side(TwinModel(), observableChildren)
        let kvo = side(KVTwinModel(), kvoChildren)
        let fired = Locked<[String: Int]>([:])
        var equalValueSets = 0
        for step in 0..<600 {
            let reads = (0..<observable.read.count).filter { _ in Int.random(in: 0..<3, using: &random) == 0 }
            withObservationTracking {
                for index in reads { observable.read[index]() }
            } onChange: {
                fired.withLock { $0["observable \(step)", default: 0] += 1 }
            }
            withObservationTracking {
                for index in reads { kvo.read[index]() }
            } onChange: {
                fired.withLock { $0["kvo \(step)", default: 0] += 1 }
            }
            let operation = Int.random(in: 0..<observable.operations.count, using: &random)
            let value = Int.random(in: -2...3, using: &random)
            let before = kvo.values()
            observable.operations[operation](value)
            kvo.operations[operation](value)
            #expect(observable.values() == kvo.values(), "seed \(seed), step \(step)")

            let firedObservable = fired.withLock { $0["observable \(step)"] ?? 0 }
            let firedKVO = fired.withLock { $0["kvo \(step)"] ?? 0 }
            #expect(firedObservable <= 1 && firedKVO <= 1, "onChange is one-shot; seed \(seed), step \(step)")
            // The documented difference: a setter (not an in-place change) storing an equal value.
            let isSetter = operation < 7
            if isSetter, firedKVO == 1, firedObservable == 0, before == kvo.values() {
                equalValueSets += 1
            } else {
                #expect(firedObservable == firedKVO, "seed \(seed), step \(step), operation \(operation)")
            }
        }
        // The random operations do store equal values often, and other changes most of the time.
        let firedCount = fired.withLock { $0.keys.filter { $0.hasPrefix("observable") }.count }
        #expect(equalValueSets > 10 && firedCount > 100, "\(equalValueSets) equal-value sets, \(firedCount) changes")
    }
}
