/// Where in an observed graph a change happened: the graph, by its number in `GraphDirectory`, and
/// the node. A value with no reference, so that a change holding one is copied and let go without
/// reference counting; its graph is looked up only when a path or the root is read.
struct ChangeLocation: Sendable {
    let graph: UInt64
    private let node: ObjectIdentifier
    /// Whether the node is the graph's root, whose properties are always reached by their names.
    let isRoot: Bool

    init(graph: UInt64, node: ObjectIdentifier, isRoot: Bool) {
        self.graph = graph
        self.node = node
        self.isRoot = isRoot
    }

    /// The graph's root, while the graph and the root live.
    var root: AnyObject? { GraphDirectory.graph(numbered: graph)?.root }

    /// The way to the node's property `name`.
    func steps(to name: String) -> [PathStep] {
        GraphDirectory.graph(numbered: graph)?.steps(to: node, property: name, every: false).first ?? [.property(name)]
    }

    /// Every way to the node's property `name`, for a node held in several places.
    func everySteps(to name: String) -> [[PathStep]] {
        GraphDirectory.graph(numbered: graph)?.steps(to: node, property: name, every: true) ?? [[.property(name)]]
    }
}
