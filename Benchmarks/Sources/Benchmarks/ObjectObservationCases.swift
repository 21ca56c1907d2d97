import ObservableCore
import Observation
import OpenCombine

// Observing a whole object: a set of one of its five properties, heard by an observation of every
// property, against one ordinary observer of that property (what DESIGN.md's target compares it
// with) and against what each peer offers for "something in this object changed": Observation's
// tracking of every property, re-armed after each change, and `objectWillChange` of OpenCombine's
// `ObservableObject`; neither gives the property's values, nor, for Combine, which property.

@KeyValueObservable
final class ObservedDocument {
    var title = ""
    var pages = 0
    var words = 0
    var author = ""
    var isDraft = true
}

@Observable final class ObservableDocument {
    var title = ""
    var pages = 0
    var words = 0
    var author = ""
    var isDraft = true
}

final class PublishedDocument: OpenCombine.ObservableObject {
    @OpenCombine.Published var title = ""
    @OpenCombine.Published var pages = 0
    @OpenCombine.Published var words = 0
    @OpenCombine.Published var author = ""
    @OpenCombine.Published var isDraft = true
}

/// A document whose `pages` has a hand-written `didSet` calling an array of closures.
final class DidSetDocument {
    var observers: [(Int, Int) -> Void] = []
    var title = ""
    var pages = 0 {
        didSet {
            for observer in observers { observer(oldValue, pages) }
        }
    }
    var words = 0
    var author = ""
    var isDraft = true
}

extension Name {
    static let wholeObject = Name.observed + " observeProperties"
    static let graph = Name.observed + " observeProperties(deep: true)"
}

/// A node of a graph of 10,000 objects: 100 folders of 99 notes under one root.
@KeyValueObservable
final class GraphNode {
    var title = ""
    var words = 0
    var children: [GraphNode] = []
}

/// The root of the graph, its 100 folders, and one note deep inside.
func makeGraph() -> (root: GraphNode, leaf: GraphNode) {
    let root = GraphNode()
    root.children = (0..<100).map { _ in
        let folder = GraphNode()
        folder.children = (0..<99).map { _ in GraphNode() }
        return folder
    }
    return (root, root.children[57].children[42])
}

/// Observing a graph of 10,000 objects: starting and ending the observation, and a set deep inside
/// it, against the observation of that one object.
func graphBenchmarks() -> [Benchmark] {
    let group = "whole object: graph of 10,000 objects"
    let sink = Tally()
    let observedGraph = makeGraph()
    let graphToken = observedGraph.root.observeProperties(deep: true) { _, change in
        sink.count &+= change.newValue(as: Int.self)!
    }
    let flatGraph = makeGraph()
    let flatToken = flatGraph.leaf.observeProperties { _, change in
        sink.count &+= change.newValue(as: Int.self)!
    }
    let started = makeGraph()
    return [
        Benchmark(group: group, name: Name.wholeObject + " of the one object set (old+new)") { n in
            for i in 0..<n { flatGraph.leaf.words = i }
            blackHole(sink.count)
            withExtendedLifetime(flatToken) {}
        },
        Benchmark(group: group, name: Name.graph + ", a set deep inside") { n in
            for i in 0..<n { observedGraph.leaf.words = i }
            blackHole(sink.count)
            withExtendedLifetime(graphToken) {}
        },
        Benchmark(
            group: group, name: Name.graph + ", observe + cancel of all 10,000",
            run: { n in
                for _ in 0..<n {
                    let token = started.root.observeProperties(deep: true) { _, _ in }
                    token.cancel()
                }
            }, maxIterations: 20),
    ]
}

func objectObservationBenchmarks() -> [Benchmark] {
    let group = "whole object: set, 1 observer"
    let sink = Tally()

    let didSet = DidSetDocument()
    didSet.observers.append { old, new in sink.count &+= old &+ new }

    let ordinary = ObservedDocument()
    let ordinaryToken = ordinary.observe(\.pages) { _, change in
        sink.count &+= change.oldValue! &+ change.newValue!
    }
    let whole = ObservedDocument()
    let wholeToken = whole.observeProperties { _, change in
        sink.count &+= change.oldValue(as: Int.self)! &+ change.newValue(as: Int.self)!
    }
    // A graph told the new values only, whose options are not its nodes': each change made again.
    let deepNew = ObservedDocument()
    let deepNewToken = deepNew.observeProperties(options: [.new], deep: true) { _, change in
        sink.count &+= change.newValue(as: Int.self)!
    }
    let unobserved = ObservedDocument()
    let observable = ObservableDocument()
    let published = PublishedDocument()
    let willChange = published.objectWillChange.sink { sink.count &+= 1 }

    return [
        Benchmark(group: group, name: Name.didSet) { n in
            for i in 0..<n { didSet.pages = i }
            blackHole(sink.count)
        },
        Benchmark(group: group, name: Name.observed + " observe(\\.pages) (old+new)") { n in
            for i in 0..<n { ordinary.pages = i }
            blackHole(sink.count)
            withExtendedLifetime(ordinaryToken) {}
        },
        Benchmark(group: group, name: Name.wholeObject + " (old+new, newValue(as:))") { n in
            for i in 0..<n { whole.pages = i }
            blackHole(sink.count)
            withExtendedLifetime(wholeToken) {}
        },
        Benchmark(group: group, name: Name.observed + ", no observer") { n in
            for i in 0..<n { unobserved.pages = i }
            blackHole(unobserved)
        },
        Benchmark(
            group: group, name: Name.observation + " (every property tracked, re-armed, no values)",
            run: { n in
                for i in 0..<n {
                    withObservationTracking {
                        _ = observable.title
                        _ = observable.pages
                        _ = observable.words
                        _ = observable.author
                        _ = observable.isDraft
                    } onChange: {
                        sink.count &+= 1
                    }
                    observable.pages = i
                }
                blackHole(sink.count)
            }),
        Benchmark(group: group, name: Name.published + " objectWillChange (no values, no property)") { n in
            for i in 0..<n { published.pages = i }
            blackHole(sink.count)
            withExtendedLifetime(willChange) {}
        },
        // Last: the gate finds the whole-object row by its name's start, which this row's shares.
        Benchmark(group: group, name: Name.graph + " of the object, new values only") { n in
            for i in 0..<n { deepNew.pages = i }
            blackHole(sink.count)
            withExtendedLifetime(deepNewToken) {}
        },
    ]
}
