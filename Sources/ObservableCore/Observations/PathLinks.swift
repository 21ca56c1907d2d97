/// A path observation's links, one per dependency, in the order the path read them. Kept, searched
/// and moved under the observation's lock; not generic, so none of it needs the path's type metadata.
/// The links are visited by index: iterating a `LinkStorage` copies it, retaining each link.
struct PathLinks {
    private var links = LinkStorage()

    var isEmpty: Bool { links.isEmpty }

    /// The link a change came through, while it is still one of the path's.
    func link(from source: ObjectIdentifier) -> PathLink? {
        links.firstIndex { ObjectIdentifier($0) == source }.map { links[$0] }
    }

    /// Removes `link` (its list ended); `nil` if it is not one of the path's.
    mutating func remove(_ link: ObjectIdentifier) -> PathLink? {
        links.firstIndex { ObjectIdentifier($0) == link }.map { links.remove(at: $0) }
    }

    /// Detaches and returns every link.
    mutating func detachAll() -> LinkStorage {
        var taken = LinkStorage()
        swap(&taken, &links)
        for index in taken.indices { taken[index].detach() }
        return taken
    }

    /// Tells the leaf link whether sets of its property run the `willChange` pass.
    func setLeafHearsWillChange(_ hears: Bool) {
        // Only the last link can be the leaf's (see `move`).
        guard let last = links.last, last.deliversLeaf else { return }
        unsafeDowncast(last, to: LeafPathLink.self).setHearsWillChange(hears)
    }

    /// Moves the links to the lists in `accesses`, attaching `observation` where it has none, and
    /// returns the links it detached, for the caller to release after unlocking. Lock order: the
    /// observation's lock, then a list's. With `leaf`, the link to the last list delivers leaf
    /// changes (a link in the wrong mode is replaced, not kept).
    mutating func move(
        to accesses: [TrackedAccess], leaf: LeafConversion?, for observation: PathObservationBase
    ) -> LinkStorage {
        let leafIndex = leaf == nil ? -1 : accesses.count - 1
        if links.count == accesses.count {
            var same = true
            for index in links.indices
            where links[index].listID != accesses[index].listID || links[index].deliversLeaf != (index == leafIndex) {
                same = false
                break
            }
            if same { return LinkStorage() }
        }
        // Paths are short: linear searches, rather than a hashed table built at every move. The old
        // links are taken out, so that removing from them copies nothing.
        var remaining = LinkStorage()
        swap(&remaining, &links)
        for index in accesses.indices {
            let list = accesses[index].listID
            let leafHere = index == leafIndex
            if let kept = remaining.firstIndex(where: { $0.listID == list && $0.deliversLeaf == leafHere }) {
                links.append(remaining.remove(at: kept))
            } else if let link = Self.attach(observation, to: accesses[index].list, leaf: leafHere ? leaf : nil) {
                links.append(link)
            }
        }
        for index in remaining.indices { remaining[index].detach() }
        return remaining
    }

    /// Registers `observation` to hear about every change of `list`'s property, its last property's
    /// values delivered as the path's with `leaf` (see `LeafPathLink`); `nil` if the list has ended.
    private static func attach(_ observation: PathObservationBase, to list: ObserverList, leaf: LeafConversion?)
        -> PathLink?
    {
        let link: PathLink
        if let leaf, observation.deliversLeafChanges {
            observation.withPlan { $0.provenLeaf.storeIfNil(leaf) }
            link = LeafPathLink(list: list, observation: observation)
        } else {
            link = PathLink(list: list, observation: observation)
        }
        return list.add(link) ? link : nil
    }
}
