/// A path observation's entries, one per dependency in the order read: the observation itself for
/// the first (until the path starts elsewhere), links for the rest. Under the observation's lock;
/// visited by index, since iterating a `LinkStorage` copies it, retaining each link.
struct PathLinks {
    /// The observation as an entry: not yet in a list, in the first dependency's, or retired.
    private enum OwnEntry {
        case unused
        case linked(ObserverList)
        case retired
    }

    private var own = OwnEntry.unused
    private var others = LinkStorage()

    var isEmpty: Bool {
        if case .linked = own { return false }
        return others.isEmpty
    }

    /// The list a change from `source` came through, while that entry is still the path's.
    func listID(from source: ObjectIdentifier, owner: PathObservationBase) -> ObjectIdentifier? {
        if source == ObjectIdentifier(owner) {
            guard case .linked(let list) = own else { return nil }
            return ObjectIdentifier(list)
        }
        return others.firstIndex { ObjectIdentifier($0) == source }.map { others[$0].listID }
    }

    /// Removes `entry` (its list ended); returns the link to release after unlocking.
    mutating func remove(_ entry: ObjectIdentifier, owner: PathObservationBase) -> (found: Bool, link: PathLink?) {
        if entry == ObjectIdentifier(owner) {
            guard case .linked = own else { return (false, nil) }
            own = .retired
            return (true, nil)
        }
        guard let index = others.firstIndex(where: { ObjectIdentifier($0) == entry }) else { return (false, nil) }
        return (true, others.remove(at: index))
    }

    /// Detaches every entry and returns the links.
    mutating func detachAll(owner: PathObservationBase) -> LinkStorage {
        retireOwn(owner)
        var taken = LinkStorage()
        swap(&taken, &others)
        for index in taken.indices { taken[index].detach() }
        return taken
    }

    private mutating func retireOwn(_ owner: PathObservationBase) {
        guard case .linked(let list) = own else { return }
        own = .retired
        list.remove(owner)
    }

    /// `mutating` only so that the caller's stored links are used in place, not copied (a retain each).
    mutating func setLeafHearsWillChange(_ hears: Bool) {
        others.withLast { last in
            guard last.deliversLeaf else { return }
            unsafeDowncast(last, to: LeafPathLink.self).setHearsWillChange(hears)
        }
    }

    /// What `move` changed: the links it detached, whether it retired the observation's entry, and
    /// whether it attached a new leaf link (which does not hear `willChange`).
    struct Moved {
        var stale = LinkStorage()
        var retiredOwn = false
        var attachedLeaf = false

        var isEmpty: Bool { stale.isEmpty && !retiredOwn }
    }

    /// Moves the entries to `lists`, in the order read (`firstOnRoot`: the first is the root's); with
    /// `leaf`, the last list's entry delivers leaf changes. Lock order: the observation's, then a
    /// list's. The caller holds `owner`.
    mutating func move(
        to lists: [ObserverList], leaf: LeafConversion?, for owner: PathObservationBase, firstOnRoot: Bool
    ) -> Moved {
        let leafIndex = leaf == nil ? -1 : lists.count - 1
        var moved = Moved()
        var start = 0
        switch own {
        case .linked(let list):
            if lists.first === list && leafIndex != 0 {
                start = 1
            } else {
                retireOwn(owner)
                moved.retiredOwn = true
            }
        case .unused:
            if let first = lists.first, leafIndex != 0 {
                // Before the entry joins the list, whose changes then read it.
                owner.ownEntryOnRoot = firstOnRoot
                if first.add(owner) {
                    own = .linked(first)
                    start = 1
                }
            }
        case .retired:
            break
        }
        if others.count == lists.count - start {
            var same = true
            for index in others.indices {
                let access = index + start
                if others[index].list !== lists[access]
                    || others[index].deliversLeaf != (access == leafIndex)
                {
                    same = false
                    break
                }
            }
            if same { return moved }
        }
        // Paths are short: linear searches rather than a hashed table built at every move.
        var remaining = LinkStorage()
        swap(&remaining, &others)
        for index in lists.indices.dropFirst(start) {
            let list = ObjectIdentifier(lists[index])
            let leafHere = index == leafIndex
            if let kept = remaining.firstIndex(where: { $0.listID == list && $0.deliversLeaf == leafHere }) {
                others.append(remaining.remove(at: kept))
            } else if let link = Self.attach(owner, to: lists[index], leaf: leafHere ? leaf : nil) {
                moved.attachedLeaf = moved.attachedLeaf || (leafHere && owner.deliversLeafChanges)
                others.append(link)
            }
        }
        for index in remaining.indices { remaining[index].detach() }
        moved.stale = remaining
        return moved
    }

    /// Moves the leaf link of a two-property path to `list` (`nil`: the intermediate is `nil`),
    /// keeping the observation's own entry; as `move`. The caller keeps the list's owner alive.
    mutating func moveLeaf(
        to list: Unmanaged<ObserverList>?, leaf: LeafConversion, for owner: PathObservationBase
    ) -> Moved {
        guard let list else { return moveLeaf(to: nil as ObserverList?, leaf: leaf, for: owner) }
        return list._withUnsafeGuaranteedRef { moveLeaf(to: $0, leaf: leaf, for: owner) }
    }

    private mutating func moveLeaf(to list: ObserverList?, leaf: LeafConversion, for owner: PathObservationBase)
        -> Moved
    {
        var moved = Moved()
        if let list, var link = others.takeOnlyLeaf() {
            if link.list === list {
                others.append(link)
                return moved
            }
            link.detach(keepingActive: true)
            // No table, set or manual change holds it any more: moved rather than made again.
            if isKnownUniquelyReferenced(&link) {
                link.countsForWillChange = false
                link.list = list
                if list.add(link) {
                    others.append(link)
                    moved.attachedLeaf = true
                    return moved
                }
            }
            others.append(link)
        } else if list == nil, others.isEmpty {
            return moved
        }
        var remaining = LinkStorage()
        swap(&remaining, &others)
        for index in remaining.indices { remaining[index].detach() }
        moved.stale = remaining
        if let list, let link = Self.attach(owner, to: list, leaf: leaf) {
            moved.attachedLeaf = owner.deliversLeafChanges
            others.append(link)
        }
        return moved
    }

    /// Registers `observation` in `list`, as a leaf link with `leaf`; `nil` if the list has ended.
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

/// A list entry that forwards a property's changes to a path observation, which evaluates the path
/// for its own values. Hears `willChange`, to count changes in flight; once detached forwards
/// nothing. Layout: `ListEntry`'s fields only (`PathObservationLayoutTests`).
class PathLink: ListEntry, @unchecked Sendable {
    /// Changed only while in no list, under the observation's lock (`PathLinks.moveLeaf`).
    final var list: ObserverList
    /// The path observation, owned. A class reference: an existential would be retained per change.
    final let observation: PathObservationBase

    init(list: ObserverList, observation: PathObservationBase) {
        self.list = list
        self.observation = observation
        super.init(options: .prior, countsForWillChange: true) { entry, _, _, newValue, mutation, stamp in
            let link = unsafeDowncast(entry, to: PathLink.self)
            guard link.isActive else { return }
            link.observation.forward(
                from: ObjectIdentifier(link), root: nil, isDidChange: newValue != nil, stamp: stamp,
                mutated: mutation != nil)
        }
    }

    init(
        list: ObserverList, observation: PathObservationBase, countsForWillChange: Bool,
        notify: @escaping EntryNotification
    ) {
        self.list = list
        self.observation = observation
        super.init(options: .prior, countsForWillChange: countsForWillChange, notify: notify)
    }

    var deliversLeaf: Bool { false }

    final var listID: ObjectIdentifier { ObjectIdentifier(list) }

    /// Leaves its list; from then on forwards nothing, unless `keepingActive` (it is about to move).
    final func detach(keepingActive: Bool = false) {
        if !keepingActive { state.store(0, ordering: .releasing) }
        // Unretained: the link holds its list, and nothing changes it during the call.
        Unmanaged.passUnretained(list)._withUnsafeGuaranteedRef { $0.remove(self) }
    }

    override final func listEnded() { observation.dependencyEnded(ObjectIdentifier(self)) }
}

extension ObserverList {
    /// The path observations with an entry in this list (for manual notification).
    func pathObservations() -> [PathObservationBase] {
        entries(of: ListEntry.self).compactMap { ($0 as? PathLink)?.observation ?? ($0 as? PathObservationBase) }
    }
}

/// The link of the last property of a proven path (`PathProof`): forwards the setter's values as
/// the path's while its set is the property's latest and no other change is in flight, else
/// evaluates. Hears `willChange` only while something is in flight (`setHearsWillChange`).
final class LeafPathLink: PathLink, @unchecked Sendable {
    override init(list: ObserverList, observation: PathObservationBase) {
        super.init(list: list, observation: observation, countsForWillChange: false) {
            entry, _, oldValue, newValue, mutation, stamp in
            LeafPathLink.forward(unsafeDowncast(entry, to: LeafPathLink.self), oldValue, newValue, mutation, stamp)
        }
    }

    /// Forwards a change heard by `link`, through the plan's leaf conversion.
    @inline(__always)
    private static func forward(
        _ link: LeafPathLink, _ oldValue: BorrowedValue, _ newValue: BorrowedValue?, _ mutation: CollectionMutation?,
        _ stamp: Int
    ) {
        guard link.isActive else { return }
        if let newValue {
            // A later set, or an intermediate change not yet handled, may make the setter's value not the path's.
            let trusted = (stamp == ObserverList.unstamped || link.list.stamp == stamp) && !link.changesInFlight
            // Unretained: the link holds the observation, the caller the link; plan and conversion are immortal.
            Unmanaged.passUnretained(link.observation)._withUnsafeGuaranteedRef { observation in
                observation.plan._withUnsafeGuaranteedRef { plan in
                    plan.leaf._withUnsafeGuaranteedRef { leaf in
                        if trusted {
                            plan.leafDelivery.leaf(
                                observation, oldValue, newValue, leaf.apply, leaf.wraps, leaf.wraps ? nil : mutation)
                        } else {
                            observation.leafDidChange(
                                from: ObjectIdentifier(link), stamp: stamp,
                                leafOld: LeafOldValue(value: oldValue, wrap: leaf.apply, wraps: leaf.wraps),
                                mutated: mutation != nil)
                        }
                    }
                }
            }
        } else if link.changesInFlight {
            link.observation.dependencyWillChange(from: ObjectIdentifier(link), root: nil, stamp: stamp)
        }
    }

    override var deliversLeaf: Bool { true }

    private var changesInFlight: Bool {
        observation.hasChangesInFlight.load(ordering: .acquiring)
    }

    func setHearsWillChange(_ hears: Bool) {
        // Under the observation's lock, which every addition and removal of this link holds too.
        Unmanaged.passUnretained(list)._withUnsafeGuaranteedRef { $0.setCountsForWillChange(ownedEntry: self, hears) }
    }
}

/// A path observation's links: the first inline, any more in an array, so that a two-property path
/// (most) moves its link without allocating. Under the observation's lock.
struct LinkStorage: RandomAccessCollection {
    private var first: PathLink?
    /// `nil` until a second link: storage with one link, or none, has nothing to release.
    private var more: [PathLink]?

    var startIndex: Int { 0 }
    var endIndex: Int { first == nil ? 0 : 1 + (more?.count ?? 0) }

    @inline(__always)
    subscript(index: Int) -> PathLink {
        index == 0 ? first.unsafelyUnwrapped : more![index - 1]
    }

    /// Calls `body` with the last link, unretained: the storage holds it, and nothing changes the
    /// storage during the call (the observation's lock is held).
    @inline(__always)
    func withLast(_ body: (PathLink) -> Void) {
        let last = count > 1 ? Unmanaged.passUnretained(self[count - 1]) : first.map(Unmanaged.passUnretained)
        last?._withUnsafeGuaranteedRef(body)
    }

    /// Takes the links out when there is one and it is a leaf link; moved, not copied.
    mutating func takeOnlyLeaf() -> PathLink? {
        guard count == 1, first?.deliversLeaf == true else { return nil }
        var taken: PathLink?
        swap(&taken, &first)
        return taken
    }

    @inline(__always)
    mutating func append(_ link: PathLink) {
        if first == nil {
            first = link
        } else if more == nil {
            more = [link]
        } else {
            more!.append(link)
        }
    }

    mutating func remove(at index: Int) -> PathLink {
        let removed = self[index]
        if index == 0 {
            first = count > 1 ? more!.removeFirst() : nil
        } else {
            more!.remove(at: index - 1)
        }
        return removed
    }
}
