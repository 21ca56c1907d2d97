import Foundation
import ObservableCore
import Synchronization

// JSON Patch: recording a set of an `Int` (encoded inline: no encoding to set aside) against one
// whole-object observer of it (the target: ≤ 2×), beside the least recorders on this
// library's typed and deep observers, and what `JSONValue(encoding:)` costs a value with no inline path; applying
// 10,000 operations to a 10,000-object document, and encoding them, against JSONEncoder/JSONDecoder
// of the whole document, what a user without patches sends instead.

@KeyValueObservable
final class PatchedDocument: Codable {
    var title = ""
    var pages = 0
    var words = 0
    init() {}
}

/// A node of a document of 10,000 objects: 100 folders of 99 notes under one root.
@KeyValueObservable
final class PatchNode: Codable {
    var title = ""
    var words = 0
    var children: [PatchNode] = []
    init() {}
}

/// A document whose root holds a long array of numbers beside the property a patch sets.
@KeyValueObservable
final class PatchedSeries: Codable {
    var title = ""
    var samples: [Double] = (0..<100_000).map { Double($0) / 8 }
    init() {}
}

/// A document whose root holds a dictionary of 20,000 entries, which a patch goes into.
@KeyValueObservable
final class PatchedCounts: Codable {
    var title = ""
    var counts = Dictionary(uniqueKeysWithValues: (0..<20_000).map { ("k\($0)", $0) })
    init() {}
}

/// The least a recorder does with a set it hears: the property's number and the value kept under a
/// lock until read, then one `replace` made of them at the property's pointer, made once.
final class LeastJournal: Sendable {
    struct Kept {
        let property: Int
        let value: Int
    }

    let pointers: [JSONPointer]
    let kept = Mutex<[Kept]>([])

    init(properties: [String]) {
        pointers = properties.map { JSONPointer(tokens: [$0]) }
    }

    func take() -> [JSONPatchOperation] {
        var taken: [Kept] = []
        taken.reserveCapacity(1024)
        kept.withLock { swap(&taken, &$0) }
        return taken.map { JSONPatchOperation(.replace(.integer(Int64($0.value))), at: pointers[$0.property]) }
    }
}

extension Name {
    static let recorder = Name.observed + " JSONPatchRecorder"
}

func makePatchDocument() -> PatchNode {
    let root = PatchNode()
    root.children = (0..<100).map { folder in
        let node = PatchNode()
        node.title = "folder \(folder)"
        node.children = (0..<99).map { note in
            let leaf = PatchNode()
            leaf.title = "note \(note)"
            return leaf
        }
        return node
    }
    return root
}

func patchBenchmarks() -> [Benchmark] {
    let recordGroup = "JSON Patch: recording a set"
    let sink = Tally()
    let observed = PatchedDocument()
    let observer = observed.observeProperties { _, change in
        sink.count &+= change.oldValue(as: Int.self)! &+ change.newValue(as: Int.self)!
    }
    let recorded = PatchedDocument()
    let recorder = try! JSONPatchRecorder(recording: recorded)
    let deep = PatchedDocument()
    let deepObserver = deep.observeProperties(deep: true) { _, change in
        sink.count &+= change.oldValue(as: Int.self)! &+ change.newValue(as: Int.self)!
    }
    // The least a recorder built on deep observation does, which a recorder of a document must use to
    // follow its objects: hear the set as a deep observer (old and new values: a node's own change,
    // handed on as it is), keep the
    // property's number and the value, and make the operation when read; no path is found (every set
    // is the root's), no old value kept.
    let leastDeep = PatchedDocument()
    let leastDeepJournal = LeastJournal(properties: ["pages", "words"])
    let leastDeepObserver = leastDeep.observeProperties(deep: true) { _, change in
        let kept = LeastJournal.Kept(property: change.name == "pages" ? 0 : 1, value: change.newValue(as: Int.self)!)
        leastDeepJournal.kept.withLock { $0.append(kept) }
    }

    // The least a recorder built on this library's observation does: hear the set (through the
    // cheapest observer, a typed one of each property), keep it, and make its operation when read;
    // for a document of one object, whose sets need no path.
    let least = PatchedDocument()
    let leastJournal = LeastJournal(properties: ["pages", "words"])
    let leastObservers = [\PatchedDocument.pages, \.words].enumerated().map { property, keyPath in
        least.observe(keyPath, options: [.new]) { _, change in
            let kept = LeastJournal.Kept(property: property, value: change.newValue!)
            leastJournal.kept.withLock { $0.append(kept) }
        }
    }

    let applyGroup = "JSON Patch: 10,000 operations, 10,000-object document"
    let source = makePatchDocument()
    // Spread over the document by strides prime to its sizes, the same in every run (the gate counts one).
    let operations = (0..<10_000).map { i in
        let pointer = JSONPointer(tokens: ["children", String(i * 37 % 100), "children", String(i * 53 % 99), "title"])
        return JSONPatchOperation(.replace(.string("edit \(i)")), at: pointer)
    }
    let target = makePatchDocument()
    let series = PatchedSeries()
    let seriesTitles = (0..<16).map {
        [JSONPatchOperation(.replace(.string("title \($0)")), at: JSONPointer(tokens: ["title"]))]
    }
    let counts = PatchedCounts()
    let countEdits = (0..<16).map {
        [JSONPatchOperation(.replace(.integer(Int64($0))), at: JSONPointer(tokens: ["counts", "k\($0 * 1_237)"]))]
    }
    let encoded = try! JSONEncoder().encode(source)
    return [
        Benchmark(group: recordGroup, name: Name.wholeObject + " (old+new)") { n in
            for i in 0..<n { observed.pages = i }
            blackHole(sink.count)
            withExtendedLifetime(observer) {}
        },
        Benchmark(group: recordGroup, name: Name.recorder + " (a replace, value encoded)") { n in
            for i in 0..<n {
                recorded.pages = i
                if i & 1023 == 1023 { sink.count &+= try! recorder.takeOperations().count }
            }
            sink.count &+= try! recorder.takeOperations().count
            blackHole(sink.count)
        },
        Benchmark(group: recordGroup, name: Name.graph + " (old+new)") { n in
            for i in 0..<n { deep.pages = i }
            blackHole(sink.count)
            withExtendedLifetime(deepObserver) {}
        },
        Benchmark(
            group: recordGroup,
            name: "least deep recorder: a deep observer keeping each set under a lock, a replace made when read"
        ) { n in
            for i in 0..<n {
                leastDeep.pages = i
                if i & 1023 == 1023 { sink.count &+= leastDeepJournal.take().count }
            }
            sink.count &+= leastDeepJournal.take().count
            blackHole(sink.count)
            withExtendedLifetime(leastDeepObserver) {}
        },
        Benchmark(
            group: recordGroup,
            name: "least recorder: typed observers keeping each set under a lock, a replace made when read"
        ) { n in
            for i in 0..<n {
                least.pages = i
                if i & 1023 == 1023 { sink.count &+= leastJournal.take().count }
            }
            sink.count &+= leastJournal.take().count
            blackHole(sink.count)
            withExtendedLifetime(leastObservers) {}
        },
        Benchmark(group: recordGroup, name: "encoding the value alone: JSONValue(encoding:)") { n in
            for i in 0..<n {
                if case .integer(let value) = try! JSONValue(encoding: i) { sink.count &+= Int(value) }
            }
            blackHole(sink.count)
        },
        Benchmark(
            group: applyGroup, name: Name.observed + " apply(_:) of 10,000 replaces",
            run: { n in
                for _ in 0..<n { try! target.apply(operations) }
                blackHole(target)
            }, maxIterations: 3),
        Benchmark(group: applyGroup, name: Name.observed + " apply(_:) of 1 replace (each of the 10,000 in turn)") {
            n in
            for i in 0..<n { try! target.apply([operations[i % operations.count]]) }
            blackHole(target)
        },
        Benchmark(group: applyGroup, name: Name.observed + " apply(_:) of 1 replace beside 100,000 numbers") { n in
            for i in 0..<n { try! series.apply(seriesTitles[i & 15]) }
            blackHole(series)
        },
        Benchmark(group: applyGroup, name: Name.observed + " apply(_:) of 1 replace in a 20,000-entry dictionary") {
            n in
            for i in 0..<n { try! counts.apply(countEdits[i & 15]) }
            blackHole(counts)
        },
        Benchmark(
            group: applyGroup, name: "JSONEncoder of the 10,000 operations",
            run: { n in
                for _ in 0..<n { sink.count &+= try! JSONEncoder().encode(operations).count }
                blackHole(sink.count)
            }, maxIterations: 3),
        Benchmark(
            group: applyGroup, name: "JSONEncoder of the whole document",
            run: { n in
                for _ in 0..<n { sink.count &+= try! JSONEncoder().encode(source).count }
                blackHole(sink.count)
            }, maxIterations: 3),
        Benchmark(
            group: applyGroup, name: "JSONDecoder of the whole document",
            run: { n in
                for _ in 0..<n {
                    sink.count &+= try! JSONDecoder().decode(PatchNode.self, from: encoded).children.count
                }
                blackHole(sink.count)
            }, maxIterations: 3),
    ]
}
