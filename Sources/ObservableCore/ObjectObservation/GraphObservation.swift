/// `observeProperties(deep: true)`: an observation of a whole object per object strongly reached
/// (a node, once however reached), re-wired as objects join and leave. A node counts references to
/// it; a removal leaving a count above zero marks from the root, for loose cycles. Its lock guards
/// the nodes and calls no user code.
final class GraphObservation: AnyObservation, @unchecked Sendable {
    private let options: ObservationOptions
    /// Whether `options` are the nodes' (old and new values, every change).
    private let passesChangesOn: Bool
    private let watchesSetExtent: Bool
    private let handler: (AnyObject, PropertyChange) -> Void
    private let onObservedDeallocated: DeallocationHook?
    // Internal for `GraphObservation+PathFinding.swift`.
    private(set) weak var root: AnyObject?
    let rootID: ObjectIdentifier
    let lock = Lock()
    /// Guarded by `lock`.
    @exclusivity(unchecked) private(set) var nodes: [ObjectIdentifier: Node] = [:]
    /// The graph's number in `GraphDirectory`, which its changes' locations carry; written in `init`.
    private var number: UInt64 = 0

    init(
        of root: AnyObject, options: ObservationOptions, origin: ObservationOrigin, watchesSetExtent: Bool,
        onObservedDeallocated: DeallocationHook?, handler: @escaping (AnyObject, PropertyChange) -> Void
    ) {
        self.options = options
        passesChangesOn = options.isSuperset(of: [.old, .new]) && !options.skipsEqualValues
        self.watchesSetExtent = watchesSetExtent
        self.handler = handler
        self.onObservedDeallocated = onObservedDeallocated
        self.root = root
        self.rootID = ObjectIdentifier(root)
        super.init()
        self.origin = origin
        number = GraphDirectory.enter(self)
    }

    deinit {
        GraphDirectory.leave(number)
    }

    func start() {
        guard let root else { return }
        let (started, held) = lock.withLock { () -> ([Started], [Any]) in
            var held: [Any] = []
            let rootNode = makeNode(root)
            var started = [Started(observation: rootNode.observation, object: root)]
            started += attachChildren(of: rootNode, root, holding: &held)
            return (started, held)
        }
        withExtendedLifetime(held) {}
        register(started)
        // An object with no `@Observed` property, or going away: nothing could notify.
        if !(lock.withLock { nodes[rootID]?.observation.isActive ?? false }) {
            Diagnostics.warnNoObservedProperties(type(of: root))
            _ = end()
        }
    }

    struct Edge: Hashable {
        let child: ObjectIdentifier
        let property: Unmanaged<ObjectProperty>

        static func == (lhs: Edge, rhs: Edge) -> Bool {
            lhs.child == rhs.child && lhs.property.toOpaque() == rhs.property.toOpaque()
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(child)
            hasher.combine(property.toOpaque())
        }
    }

    private struct Started {
        let observation: ObjectObservation
        let object: AnyObject
    }

    private func register(_ started: [Started]) {
        for node in started { node.observation.register(node.object, warnsWhenEmpty: false) }
    }

    final class Node {
        let id: ObjectIdentifier
        let observation: ObjectObservation
        var outgoing: [Edge: Int] = [:]
        var incoming = 0
        /// The node that reached this one, and through which property: how its path is found.
        var parent: (node: ObjectIdentifier, property: Unmanaged<ObjectProperty>)?

        init(id: ObjectIdentifier, observation: ObjectObservation) {
            self.id = id
            self.observation = observation
        }
    }

    private func makeNode(_ object: AnyObject) -> Node {
        let id = ObjectIdentifier(object)
        let location = ChangeLocation(graph: number, node: id, isRoot: id == rootID)
        // The nodes want the values of every change, equal ones too: a change of references re-wires
        // the graph (`.distinct` is applied after).
        let observation = ObjectObservation(
            of: object, options: options.union([.old, .new]).subtracting(.distinct), origin: origin,
            watchesSetExtent: watchesSetExtent, location: location,
            onObservedDeallocated: { self.nodeEnded(id) }
        ) { object, change in
            self.nodeChanged(object, change)
        }
        let node = Node(id: id, observation: observation)
        nodes[id] = node
        return node
    }

    /// Adds the references `object` holds now and the nodes they reach; under the lock, `held` keeps
    /// what was read until after it.
    private func attachChildren(of node: Node, _ object: AnyObject, holding held: inout [Any]) -> [Started] {
        var made: [Started] = []
        var pending: [(Node, AnyObject)] = [(node, object)]
        while let (parent, parentObject) = pending.popLast() {
            for property in ObjectProperties.of(parentObject) where property.followsObjects {
                guard let value = property.currentValue(in: parentObject) else { continue }
                held.append(value)
                for child in ObjectContents.objects(in: value) {
                    if let newNode = addReference(from: parent, to: child, through: Unmanaged.passUnretained(property))
                    {
                        made.append(Started(observation: newNode.observation, object: child))
                        pending.append((newNode, child))
                    }
                }
            }
        }
        return made
    }

    private func addReference(
        from parent: Node, to child: AnyObject, through property: Unmanaged<ObjectProperty>
    ) -> Node? {
        let id = ObjectIdentifier(child)
        parent.outgoing[Edge(child: id, property: property), default: 0] += 1
        if let node = nodes[id] {
            node.incoming += 1
            return nil
        }
        let node = makeNode(child)
        node.incoming = 1
        node.parent = (parent.id, property)
        return node
    }

    /// Takes a reference from `parent` to `id` away; returns whether to mark from the root, and the
    /// observations of the nodes that left.
    private func removeReference(
        from parent: Node, to id: ObjectIdentifier, through property: Unmanaged<ObjectProperty>
    ) -> (mark: Bool, left: [ObjectObservation]) {
        let edge = Edge(child: id, property: property)
        guard let count = parent.outgoing[edge] else { return (false, []) }
        parent.outgoing[edge] = count > 1 ? count - 1 : nil
        guard let node = nodes[id], id != rootID else { return (false, []) }
        node.incoming -= 1
        if node.incoming > 0 { return (true, []) }
        // Nothing refers to it any more: it leaves, with what only it reached.
        var left: [ObjectObservation] = []
        var mark = false
        var leaving = [node]
        while let gone = leaving.popLast() {
            nodes[gone.id] = nil
            left.append(gone.observation)
            for (edge, count) in gone.outgoing {
                guard let child = nodes[edge.child], edge.child != rootID else { continue }
                child.incoming -= count
                if child.incoming > 0 {
                    mark = true
                } else if !leaving.contains(where: { $0 === child }) {
                    leaving.append(child)
                }
            }
        }
        return (mark, left)
    }

    /// Marks every node the root reaches, choosing each one's parent on the way (the shortest way);
    /// the others leave. Returns the observations of those that left.
    private func markFromRoot() -> [ObjectObservation] {
        guard let rootNode = nodes[rootID] else { return [] }
        var reached: Set<ObjectIdentifier> = [rootID]
        var queue = [rootNode]
        var next = 0
        while next < queue.count {
            let node = queue[next]
            next += 1
            for edge in node.outgoing.keys where !reached.contains(edge.child) {
                guard let child = nodes[edge.child] else { continue }
                reached.insert(edge.child)
                child.parent = (node.id, edge.property)
                queue.append(child)
            }
        }
        var left: [ObjectObservation] = []
        for (id, node) in nodes where !reached.contains(id) {
            // Its references to nodes that stay no longer count.
            for (edge, count) in node.outgoing where reached.contains(edge.child) {
                nodes[edge.child]?.incoming -= count
            }
            left.append(node.observation)
        }
        nodes = nodes.filter { reached.contains($0.key) }
        return left
    }

    /// A change of a property of a node's object: re-wires the graph for a property holding objects,
    /// then hands the change on, with where it happened. A node is its object's identity.
    @inline(__always)
    private func nodeChanged(_ object: AnyObject, _ change: PropertyChange) {
        guard isActive else { return }
        let id = ObjectIdentifier(object)
        if id == rootID {
            // The root's own change has the root in hand, held by its setter: it is not loaded from the
            // weak reference, whose side table makes that slow.
            handOn(id, object, change, root: object)
        } else if let root {
            handOn(id, object, change, root: root)
        }
    }

    /// `nodeChanged` once the root is in hand: the re-wiring, then the change handed on.
    @inline(__always)
    private func handOn(_ id: ObjectIdentifier, _ object: AnyObject, _ change: PropertyChange, root: AnyObject) {
        if !change.isPrior, change.property._withUnsafeGuaranteedRef({ $0.followsObjects }) {
            rewire(id, object, change)
        }
        // With the values and changes the nodes' options give, the node's change is handed on as it is.
        if passesChangesOn { return handler(root, change) }
        guard options.sends(isPrior: change.isPrior, old: change.oldValue, new: change.newValue) else { return }
        if change.changedObject == nil, change.mutation == nil, change.old.isBytes, change.new.isBytes {
            return handOnBytes(root, change)
        }
        // A new change, field by field (a copy of the whole would go through its value witness).
        let delivered = PropertyChange(
            options: options, property: change.property, old: change.old, new: change.new, isPrior: change.isPrior,
            mutation: change.mutation, location: change.location, changedObject: change.changedObject)
        handler(root, delivered)
    }

    /// A root's change of bytes made again from its fields, apart (not inlined: the compiler would
    /// merge its call with the general one), so that the compiler sees it holds nothing to release.
    @inline(never)
    private func handOnBytes(_ root: AnyObject, _ change: borrowing PropertyChange) {
        let (old, new) = (change.old, change.new)
        handler(
            root,
            PropertyChange(
                options: options, property: change.property, old: KeyedValue(old.bytesType, bytes: old.bytes),
                new: KeyedValue(new.bytesType, bytes: new.bytes), isPrior: change.isPrior, mutation: nil,
                location: change.location))
    }

    private func rewire(_ id: ObjectIdentifier, _ object: AnyObject, _ change: PropertyChange) {
        var removed = ObjectContents.objects(in: change.oldValue).map(ObjectIdentifier.init)
        var added: [AnyObject] = []
        for child in ObjectContents.objects(in: change.newValue) {
            if let index = removed.firstIndex(of: ObjectIdentifier(child)) {
                removed.remove(at: index)
            } else {
                added.append(child)
            }
        }
        guard !removed.isEmpty || !added.isEmpty else { return }
        let (started, left, held) = lock.withLock { () -> ([Started], [ObjectObservation], [Any]) in
            guard let node = nodes[id] else { return ([], [], []) }
            var held: [Any] = []
            var started: [Started] = []
            for child in added {
                if let newNode = addReference(from: node, to: child, through: change.property) {
                    started.append(Started(observation: newNode.observation, object: child))
                    started += attachChildren(of: newNode, child, holding: &held)
                }
            }
            var left: [ObjectObservation] = []
            var mark = false
            for childID in removed {
                let result = removeReference(from: node, to: childID, through: change.property)
                mark = mark || result.mark
                left += result.left
            }
            if mark { left += markFromRoot() }
            return (started, left, held)
        }
        withExtendedLifetime((added, held)) {}
        register(started)
        for observation in left { observation.cancelOwned() }
    }

    /// The node `id`'s object was deallocated: the root ends the graph; any other node leaves it.
    private func nodeEnded(_ id: ObjectIdentifier) {
        if id == rootID {
            if end() { onObservedDeallocated?() }
            return
        }
        lock.withLock { nodes[id] = nil }
    }

    override func didCancel() {
        for observation in takeNodes() { observation.cancelOwned() }
    }

    private func end() -> Bool {
        guard claimEnd() else { return false }
        for observation in takeNodes() { observation.cancelOwned() }
        return true
    }

    private func takeNodes() -> [ObjectObservation] {
        lock.withLock {
            defer { nodes = [:] }
            return nodes.values.map(\.observation)
        }
    }

    override func summary() -> ObservationSummary? {
        ObservationSummary(
            keyPath: \PropertyChange.self, options: options, origin: origin, isPath: false, root: nil,
            isWholeObject: true)
    }
}
