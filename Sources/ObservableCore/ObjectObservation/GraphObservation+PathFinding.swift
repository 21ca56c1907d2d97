extension GraphObservation: PathFinding {
    /// `pages[2].title`: the ways from the root to `id`'s property, walked down after the lock: the
    /// first found, or with `every` each way to an object held in several places.
    func steps(to id: ObjectIdentifier, property name: String, every: Bool) -> [[PathStep]] {
        if id == rootID { return [[.property(name)]] }
        let chains = lock.withLock { every ? everyChain(to: id) : firstChain(to: id).map { [$0] } ?? [] }
        guard let root else { return [[.property(name)]] }
        var found: [[PathStep]] = []
        for chain in chains {
            var reached: [(object: AnyObject, steps: [PathStep])] = [(root, [])]
            for (property, childID) in chain {
                reached = reached.flatMap { object, steps in
                    let value = property.currentValue(in: object)
                    guard
                        let child = ObjectContents.objects(in: value).first(where: { ObjectIdentifier($0) == childID })
                    else { return [] as [(AnyObject, [PathStep])] }
                    return ObjectContents.positions(of: child, in: value, firstOnly: !every).map {
                        (child, steps + [.property(property.name)] + $0)
                    }
                }
            }
            found += reached.map { $0.steps + [.property(name)] }
            if !every, !found.isEmpty { break }
        }
        return found.isEmpty && !every ? [[.property(name)]] : found
    }

    typealias Chain = [(property: ObjectProperty, child: ObjectIdentifier)]

    /// The links that first reached each node on the way to `id`; under the lock.
    private func firstChain(to id: ObjectIdentifier) -> Chain? {
        var (chain, current, seen): (Chain, ObjectIdentifier, Set<ObjectIdentifier>) = ([], id, [])
        while current != rootID, seen.insert(current).inserted, let parent = nodes[current]?.parent {
            chain.append((parent.property.takeUnretainedValue(), current))
            current = parent.node
        }
        return current == rootID ? chain.reversed() : nil
    }

    /// Every way to `id` without a cycle; under the lock. The nodes are searched for the parents of
    /// a node held more than once, which only a node that knows one parent is spared.
    private func everyChain(to id: ObjectIdentifier) -> [Chain] {
        var found: [Chain] = []
        var reversed: Chain = []
        var onWay: Set<ObjectIdentifier> = []
        func climb(from current: ObjectIdentifier) {
            if current == rootID {
                found.append(reversed.reversed())
                return
            }
            guard let node = nodes[current], onWay.insert(current).inserted else { return }
            defer { onWay.remove(current) }
            let parents =
                (node.incoming <= 1 ? node.parent.map { [$0] } : nil)
                ?? nodes.values.flatMap { other in
                    other.outgoing.keys.filter { $0.child == current }.map { (node: other.id, property: $0.property) }
                }
            for parent in parents {
                reversed.append((parent.property.takeUnretainedValue(), current))
                climb(from: parent.node)
                reversed.removeLast()
            }
        }
        climb(from: id)
        return found
    }
}
