/// A path observation's entries, one per dependency, in the order the path read them: the
/// observation itself for the first (see `PathObservationBase`), links for the rest. Kept, searched
/// and moved under the observation's lock; not generic, so none of it needs the path's type metadata.
/// The links are visited by index: iterating a `LinkStorage` copies it, retaining each link.
///
/// The observation is its first dependency's entry once, at most: from its first linking, while the
/// path reads that list first (and not as its proven leaf); once the path starts elsewhere it is
/// retired, and links take every list. It never joins another list: a change that list began
/// before could not be told from one of the new list's, both coming from the observation itself.
struct PathLinks {
    /// The observation as an entry: not yet in a list, in `list` (the first dependency's), or
    /// retired. Eight bytes: the cases without a list take no room of their own.
    private enum OwnEntry {
        case unused
        case linked(ObserverList)
        case retired
    }

    private var own = OwnEntry.unused
    /// The links of the dependencies after the first (or of all of them, once `own` is retired).
    private var others = LinkStorage()

    var isEmpty: Bool {
        if case .linked = own { return false }
        return others.isEmpty
    }

    /// The list a change from `source` (the identity of `owner` or of a link) came through, while
    /// that entry is still one of the path's.
    func listID(from source: ObjectIdentifier, owner: PathObservationBase) -> ObjectIdentifier? {
        if source == ObjectIdentifier(owner) {
            guard case .linked(let list) = own else { return nil }
            return ObjectIdentifier(list)
        }
        return others.firstIndex { ObjectIdentifier($0) == source }.map { others[$0].listID }
    }

    /// Removes the entry `entry` (its list ended); `false` if it is not one of the path's. The
    /// link removed, if it was one, is returned for the caller to release after unlocking.
    mutating func remove(_ entry: ObjectIdentifier, owner: PathObservationBase) -> (found: Bool, link: PathLink?) {
        if entry == ObjectIdentifier(owner) {
            guard case .linked = own else { return (false, nil) }
            own = .retired
            return (true, nil)
        }
        guard let index = others.firstIndex(where: { ObjectIdentifier($0) == entry }) else { return (false, nil) }
        return (true, others.remove(at: index))
    }

    /// Detaches every entry, and returns the links. The caller holds `owner`: its list released it.
    mutating func detachAll(owner: PathObservationBase) -> LinkStorage {
        retireOwn(owner)
        var taken = LinkStorage()
        swap(&taken, &others)
        for index in taken.indices { taken[index].detach() }
        return taken
    }

    /// Takes the observation out of its list for good, if it is in one.
    private mutating func retireOwn(_ owner: PathObservationBase) {
        guard case .linked(let list) = own else { return }
        own = .retired
        list.remove(owner)
    }

    /// Tells the leaf link whether sets of its property run the `willChange` pass.
    func setLeafHearsWillChange(_ hears: Bool) {
        // Only the last link can be the leaf's (see `move`).
        guard let last = others.last, last.deliversLeaf else { return }
        unsafeDowncast(last, to: LeafPathLink.self).setHearsWillChange(hears)
    }

    /// What `move` changed: the links it detached (for the caller to release after unlocking) and
    /// whether it retired the observation's own entry.
    struct Moved {
        var stale = LinkStorage()
        var retiredOwn = false

        /// Whether any entry left the path.
        var isEmpty: Bool { stale.isEmpty && !retiredOwn }
    }

    /// Moves the entries to the lists in `accesses`, attaching `owner` where it has none. Lock
    /// order: the observation's lock, then a list's. With `leaf`, the entry of the last list
    /// delivers leaf changes (a link in the wrong mode is replaced, not kept). The caller holds
    /// `owner` (its list may release it).
    mutating func move(
        to accesses: [TrackedAccess], leaf: LeafConversion?, for owner: PathObservationBase
    ) -> Moved {
        let leafIndex = leaf == nil ? -1 : accesses.count - 1
        var moved = Moved()
        // The observation is the first dependency's entry while the path starts at its list.
        var start = 0
        switch own {
        case .linked(let list):
            if accesses.first?.listID == ObjectIdentifier(list) && leafIndex != 0 {
                start = 1
            } else {
                retireOwn(owner)
                moved.retiredOwn = true
            }
        case .unused:
            if let first = accesses.first, leafIndex != 0, first.list.add(owner) {
                own = .linked(first.list)
                start = 1
            }
        case .retired:
            break
        }
        if others.count == accesses.count - start {
            var same = true
            for index in others.indices {
                let access = index + start
                if others[index].listID != accesses[access].listID
                    || others[index].deliversLeaf != (access == leafIndex)
                {
                    same = false
                    break
                }
            }
            if same { return moved }
        }
        // Paths are short: linear searches, rather than a hashed table built at every move. The old
        // links are taken out, so that removing from them copies nothing.
        var remaining = LinkStorage()
        swap(&remaining, &others)
        for index in accesses.indices.dropFirst(start) {
            let list = accesses[index].listID
            let leafHere = index == leafIndex
            if let kept = remaining.firstIndex(where: { $0.listID == list && $0.deliversLeaf == leafHere }) {
                others.append(remaining.remove(at: kept))
            } else if let link = Self.attach(owner, to: accesses[index].list, leaf: leafHere ? leaf : nil) {
                others.append(link)
            }
        }
        for index in remaining.indices { remaining[index].detach() }
        moved.stale = remaining
        return moved
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
