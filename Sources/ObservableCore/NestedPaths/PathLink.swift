/// A list entry that forwards a property's changes to a path observation, which evaluates the path
/// again: that gives its own old and new values, so the setter's are unused. The link of the last
/// property of a path proven to be pure navigation is a `LeafPathLink`, which forwards the setter's
/// values instead. (The path's first property needs no link: the observation is that list's entry,
/// see `PathLinks`.)
///
/// Every link hears `willChange`: the path counts its changes in flight from there
/// (`PathObservationBase.intermediatesInFlight`) and takes its old value.
///
/// Once detached (the path moved off this property, or ended) a link forwards nothing, not even a
/// change already being delivered: its `state` turns `0`, as a cancelled observation's does.
///
/// Layout: 56 bytes (a malloc chunk of 64): `ListEntry`'s 40, the list and the observation.
class PathLink: ListEntry, @unchecked Sendable {
    final let list: ObserverList
    /// The path observation, which the link owns (see `AnyObservation`). A class reference, not an
    /// existential: passing an existential retained and released the observation on every change.
    final let observation: PathObservationBase

    init(list: ObserverList, observation: PathObservationBase) {
        self.list = list
        self.observation = observation
        super.init(options: .prior, countsForWillChange: true) { entry, _, _, newValue, _, stamp in
            let link = unsafeDowncast(entry, to: PathLink.self)
            guard link.isActive else { return }
            link.observation.forward(from: ObjectIdentifier(link), isDidChange: newValue != nil, stamp: stamp)
        }
    }

    /// For a subclass with its own `notify`.
    init(
        list: ObserverList, observation: PathObservationBase, countsForWillChange: Bool,
        notify: @escaping EntryNotification
    ) {
        self.list = list
        self.observation = observation
        super.init(options: .prior, countsForWillChange: countsForWillChange, notify: notify)
    }

    /// Whether the link delivers its property's values as the path's (a `LeafPathLink`).
    var deliversLeaf: Bool { false }

    /// Identity of the list the link sits in (one per instance and property).
    final var listID: ObjectIdentifier { ObjectIdentifier(list) }

    /// Removes the link from its list; idempotent.
    final func detach() {
        state.store(0, ordering: .releasing)
        list.remove(self)
    }

    override final func listEnded() { observation.dependencyEnded(ObjectIdentifier(self)) }
}

extension ObserverList {
    /// The path observations with an entry in this list, themselves or a link (for manual
    /// notification of computed properties).
    func pathObservations() -> [PathObservationBase] {
        entries(of: ListEntry.self).compactMap { ($0 as? PathLink)?.observation ?? ($0 as? PathObservationBase) }
    }
}
