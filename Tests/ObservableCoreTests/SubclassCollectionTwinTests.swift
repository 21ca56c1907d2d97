import ObservableCore
import Testing

// A base class and its subclass, plain and `@Observed`, with the same bodies but for the attribute:
// arrays mutated in place on an instance of the subclass must store and log what plain Swift does,
// and every way of observing them must report what a direct observation of a base instance reports,
// which is what the operation did (the elements are unique, so each operation has one description).

private final class Book: Equatable {
    let title: String
    init(_ title: String) { self.title = title }
    static func == (a: Book, b: Book) -> Bool { a.title == b.title }
}

/// Identity, not equality: arrays of them are compared by `===`.
private final class Note {}

private final class Viewer {}

private class PlainShelf {
    var log: [String] = []
    var tags: [String] = [] { didSet { log.append("tags \(oldValue.count)->\(tags.count)") } }
    var notes: [Note] = []
}

private final class PlainShelfItem: PlainShelf {
    var books: [Book] = []
}

@KeyValueObservable
private class ObservedShelf: KeyValueObservable {
    @Unobserved var log: [String] = []
    @Observed var tags: [String] = [] { didSet { log.append("tags \(oldValue.count)->\(tags.count)") } }
    @Observed var notes: [Note] = []
}

@KeyValueObservable
private final class ObservedShelfItem: ObservedShelf {
    @Observed var books: [Book] = []
}

/// A change reduced to its kind and indexes: `"insertion [2..<3]"`, `"setting"`.
private func summary(_ kind: ObservedChangeKind, _ indexes: RangeSet<Int>?) -> String {
    indexes.map { "\(kind) \(rangesText($0))" } ?? "\(kind)"
}

/// One random in-place operation or assignment on an array of unique elements, and what it did: the
/// description every observation must give. Elements are made from fresh integers (`make`).
private struct ArrayOperation {
    enum Step {
        case append(Int)
        case insert(Int, at: Int)
        case remove(at: Int)
        case replace(at: Int, with: Int)
        case swap(Int, Int)
        case appendTwo(Int)
        case removeAll, removeLast
        case assign(Int)
    }

    let step: Step
    let expected: String

    static func random(count: Int, fresh: Int, using random: inout SeededGenerator) -> ArrayOperation? {
        let index = count == 0 ? 0 : Int.random(in: 0..<count, using: &random)
        switch Int.random(in: 0..<9, using: &random) {
        case 0: return ArrayOperation(step: .append(fresh), expected: "insertion [\(count)..<\(count + 1)]")
        case 1:
            let at = Int.random(in: 0...count, using: &random)
            return ArrayOperation(step: .insert(fresh, at: at), expected: "insertion [\(at)..<\(at + 1)]")
        case 2 where count > 0:
            return ArrayOperation(step: .remove(at: index), expected: "removal [\(index)..<\(index + 1)]")
        case 3 where count > 0:
            return ArrayOperation(
                step: .replace(at: index, with: fresh), expected: "replacement [\(index)..<\(index + 1)]")
        case 4 where count > 1:
            let other = (index + 1) % count
            let (low, high) = (min(index, other), max(index, other))
            let ranges = high == low + 1 ? "\(low)..<\(high + 1)" : "\(low)..<\(low + 1), \(high)..<\(high + 1)"
            return ArrayOperation(step: .swap(index, other), expected: "replacement [\(ranges)]")
        case 5: return ArrayOperation(step: .appendTwo(fresh), expected: "insertion [\(count)..<\(count + 2)]")
        case 6 where count > 0: return ArrayOperation(step: .removeAll, expected: "removal [0..<\(count)]")
        case 7 where count > 0:
            return ArrayOperation(step: .removeLast, expected: "removal [\(count - 1)..<\(count)]")
        case 8: return ArrayOperation(step: .assign(fresh), expected: "setting")
        default: return nil
        }
    }

    /// Applies the operation to the array that `set` assigns and `modify` mutates in place.
    func apply<Element>(
        set: ([Element]) -> Void, modify: ((inout [Element]) -> Void) -> Void, make: (Int) -> Element
    ) {
        switch step {
        case .append(let value):
            let element = make(value)
            modify { $0.append(element) }
        case .insert(let value, let index):
            let element = make(value)
            modify { $0.insert(element, at: index) }
        case .remove(let index): modify { _ = $0.remove(at: index) }
        case .replace(let index, let value):
            let element = make(value)
            modify { $0[index] = element }
        case .swap(let first, let second): modify { $0.swapAt(first, second) }
        case .appendTwo(let value):
            let elements = [make(value), make(value + 1)]
            modify { $0 += elements }
        case .removeAll: modify { $0.removeAll() }
        case .removeLast: modify { _ = $0.removeLast() }
        case .assign(let value): set([make(value)])
        }
    }
}

@Suite("Subclass instances: arrays mutated in place, against plain twins and every way to observe")
struct SubclassCollectionTwinTests {
    @MainActor
    @Test(
        "random in-place operations on a subclass instance: plain values and didSet, and one description from every observation",
        arguments: [UInt64(1), 2, 3, 4, 5])
    func randomOperations(seed: UInt64) async throws {
        var random = SeededGenerator(seed: seed)
        let plain = PlainShelfItem()
        let item = ObservedShelfItem()
        let base = ObservedShelf()
        let viewer = Viewer()
        let controller = ObservationController(observer: viewer)
        var heard: [String: [String]] = [:]
        func record(_ name: String, _ kind: ObservedChangeKind, _ indexes: RangeSet<Int>?, isPrior: Bool = false) {
            if !isPrior { heard[name, default: []].append(summary(kind, indexes)) }
        }
        var tokens = [
            item.observe(\.tags) { _, change in record("token", change.kind, change.indexes) },
            item.observe(\.tags, options: [.new]) { _, change in record("token [.new]", change.kind, change.indexes) },
            item.observe(\.tags, options: []) { _, change in record("token []", change.kind, change.indexes) },
            item.observe(\.tags, options: [.old, .new, .prior]) { _, change in
                record("token with prior", change.kind, change.indexes, isPrior: change.isPrior)
            },
            (item as ObservedShelf).observe(\.tags) { _, change in
                record("through the base type", change.kind, change.indexes)
            },
            try item.observe(keyPath: "tags") { _, change in record("string key", change.kind, change.indexes) },
            item.observe(\.tags, isolation: MainActor.shared) { change in
                record("on the main actor", change.kind, change.indexes)
            },
            item.observeProperties { _, change in
                if change.name == "tags" { record("whole object", change.kind, change.indexes) }
            },
            base.observe(\.tags) { _, change in record("base instance", change.kind, change.indexes) },
            item.observe(\.notes) { _, change in record("notes", change.kind, change.indexes) },
            item.observe(\.books) { _, change in record("books", change.kind, change.indexes) },
        ]
        controller.observe(item, \.tags) { _, _, change in record("controller", change.kind, change.indexes) }
        try controller.observe(item, keyPath: "tags") { _, _, change in
            record("controller string key", change.kind, change.indexes)
        }
        var sequence = item.changes(of: \.tags).makeAsyncIterator()
        var expected: [String: [String]] = [:]
        var fresh = 0
        for step in 0..<150 {
            let property = Int.random(in: 0..<3, using: &random)
            fresh += 10
            let count = [plain.tags.count, plain.notes.count, plain.books.count][property]
            guard let operation = ArrayOperation.random(count: count, fresh: fresh, using: &random) else { continue }
            switch property {
            case 0:
                let word = { (value: Int) in "w\(value)" }
                operation.apply(set: { plain.tags = $0 }, modify: { $0(&plain.tags) }, make: word)
                operation.apply(set: { item.tags = $0 }, modify: { $0(&item.tags) }, make: word)
                operation.apply(set: { base.tags = $0 }, modify: { $0(&base.tags) }, make: word)
                for name in [
                    "token", "token [.new]", "token []", "token with prior", "through the base type", "string key",
                    "on the main actor", "whole object", "base instance", "controller", "controller string key",
                ] {
                    expected[name, default: []].append(operation.expected)
                }
            case 1:
                let note = { (_: Int) in Note() }
                operation.apply(set: { plain.notes = $0 }, modify: { $0(&plain.notes) }, make: note)
                operation.apply(set: { item.notes = $0 }, modify: { $0(&item.notes) }, make: note)
                expected["notes", default: []].append(operation.expected)
            default:
                let book = { (value: Int) in Book("b\(value)") }
                operation.apply(set: { plain.books = $0 }, modify: { $0(&plain.books) }, make: book)
                operation.apply(set: { item.books = $0 }, modify: { $0(&item.books) }, make: book)
                expected["books", default: []].append(operation.expected)
            }
            #expect(item.tags == plain.tags, "seed \(seed), step \(step)")
            #expect(item.books == plain.books, "seed \(seed), step \(step)")
            #expect(item.notes.count == plain.notes.count, "seed \(seed), step \(step)")
            #expect(item.log == plain.log, "seed \(seed), step \(step)")
        }
        for (name, descriptions) in expected {
            #expect(heard[name] == descriptions, "\(name), seed \(seed)")
        }
        #expect(Set(expected["token"] ?? []).count > 5, "the operations cover the kinds")
        for description in expected["token"] ?? [] {
            let change = await sequence.next(isolation: #isolation)
            #expect(change.map { summary($0.kind, $0.indexes) } == description, "sequence, seed \(seed)")
        }
        tokens.removeAll()
        controller.unobserveAll()
        withExtendedLifetime(viewer) {}
    }
}
