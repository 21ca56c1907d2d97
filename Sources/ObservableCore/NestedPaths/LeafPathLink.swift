/// The link of the last property of a path proven to be pure navigation (see `PathProof`): it
/// forwards the setter's values as the path's, through its plan's `leafDelivery`, without
/// evaluating the path. It trusts them only when they are still the path's: its set is the
/// property's latest (`ObserverList.stamp`) and no other change of the path is in flight
/// (`PathObservationBase.intermediatesInFlight`, which the other links count from `willChange`).
/// Otherwise the path is evaluated.
///
/// While a change is in flight the path may not read this property at the moment, so a set of it
/// beginning then records the path's value before the set, as the other links do: for that, the
/// path makes its leaf link count in the list's `willChangeCount` only while something is in
/// flight (`setHearsWillChange`), so that a set of the leaf otherwise skips the `willChange` pass
/// altogether.
///
/// The conversion of the property's values to the path's (`LeafConversion`) is the plan's, not
/// the link's: a link is a `PathLink`'s 56 bytes (a malloc chunk of 64).
final class LeafPathLink: PathLink, @unchecked Sendable {
    override init(list: ObserverList, observation: PathObservationBase) {
        super.init(list: list, observation: observation, countsForWillChange: false) {
            entry, _, oldValue, newValue, _, stamp in
            LeafPathLink.forward(unsafeDowncast(entry, to: LeafPathLink.self), oldValue, newValue, stamp)
        }
    }

    /// Forwards a change heard by `link`, converted by the plan's leaf conversion.
    @inline(__always)
    private static func forward(
        _ link: LeafPathLink, _ oldValue: BorrowedValue, _ newValue: BorrowedValue?, _ stamp: Int
    ) {
        guard link.isActive else { return }
        if let newValue {
            // A later set of the property (in a callback before this link, or on another thread),
            // or an intermediate change the path has not handled yet, makes the setter's new value
            // possibly not the path's: then the path is evaluated.
            let trusted = (stamp == ReadGate.unstamped || link.list.stamp == stamp) && !link.changesInFlight
            // Unretained: the link holds the observation, the caller holds the link, and the plan
            // and its conversion are immortal. A local reference retained and released each (and
            // the functions' contexts) per change.
            Unmanaged.passUnretained(link.observation)._withUnsafeGuaranteedRef { observation in
                observation.plan._withUnsafeGuaranteedRef { plan in
                    plan.leaf._withUnsafeGuaranteedRef { leaf in
                        if trusted {
                            plan.leafDelivery(observation, oldValue, newValue, leaf.apply, leaf.wraps)
                        } else {
                            observation.dependencyDidChange(
                                from: ObjectIdentifier(link), stamp: stamp,
                                leafOld: LeafOldValue(value: oldValue, wrap: leaf.apply, wraps: leaf.wraps))
                        }
                    }
                }
            }
        } else if link.changesInFlight {
            link.observation.dependencyWillChange(from: ObjectIdentifier(link), stamp: stamp)
        }
    }

    override var deliversLeaf: Bool { true }

    /// Whether another change of the path is in flight.
    private var changesInFlight: Bool {
        observation.intermediatesInFlight.load(ordering: .acquiring) != 0
    }

    /// Whether sets of its property run the `willChange` pass (see above).
    func setHearsWillChange(_ hears: Bool) {
        list.setCountsForWillChange(self, hears)
    }
}
