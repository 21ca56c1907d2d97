/// Where in an observed graph a change happened: the node and its object, shared by all the node's
/// changes (a change holds one, see `PropertyChange.path`).
final class ChangeLocation: @unchecked Sendable {  // written in `init` only
    private weak var graph: (any PathFinding)?
    private let node: ObjectIdentifier
    private(set) weak var object: AnyObject?

    init(graph: any PathFinding, node: ObjectIdentifier, object: AnyObject) {
        self.graph = graph
        self.node = node
        self.object = object
    }

    /// The path to the node's property `name`.
    func path(to name: String) -> String {
        graph?.path(to: node, property: name) ?? name
    }
}

/// What finds the path to a node of a graph (`GraphObservation`).
protocol PathFinding: AnyObject, Sendable {
    /// `pages[2].title`: the way from the root to the property `name` of the node `id`.
    func path(to id: ObjectIdentifier, property name: String) -> String
}
