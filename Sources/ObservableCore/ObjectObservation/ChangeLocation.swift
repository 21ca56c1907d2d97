/// Where in an observed graph a change happened: the node, shared by all its changes (a change
/// holds one, see `PropertyChange.path`). It does not refer to the node's object, since a weak reference
/// would move the object's reference counts to a side table, slowing every retain of it; except the
/// root's, which the graph already holds weakly, and which its changes do not hold.
final class ChangeLocation: @unchecked Sendable {  // written in `init` only
    private weak var graph: (any PathFinding)?
    private let node: ObjectIdentifier
    /// Whether the node is the graph's root, whose properties are always reached by their names.
    let isRoot: Bool
    /// The root, for the root's node: the object of its changes.
    private(set) weak var root: AnyObject?

    init(graph: any PathFinding, node: ObjectIdentifier, root: AnyObject?) {
        self.graph = graph
        self.node = node
        self.isRoot = root != nil
        self.root = root
    }

    /// The way to the node's property `name`.
    func steps(to name: String) -> [PathStep] {
        graph?.steps(to: node, property: name, every: false).first ?? [.property(name)]
    }

    /// Every way to the node's property `name`, for a node held in several places.
    func everySteps(to name: String) -> [[PathStep]] {
        graph?.steps(to: node, property: name, every: true) ?? [[.property(name)]]
    }
}

/// What finds the path to a node of a graph (`GraphObservation`).
protocol PathFinding: AnyObject, Sendable {
    /// `pages[2].title`: the ways from the root to the property `name` of the node `id`: the first
    /// found, or every one.
    func steps(to id: ObjectIdentifier, property name: String, every: Bool) -> [[PathStep]]
}
