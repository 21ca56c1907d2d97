/// The link of the last property of a path proven to be pure navigation (see `PathProof`): it
/// forwards the setter's values as the path's, through the observation's `leafDelivery`, without
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
/// Layout: a `PathLink`'s 56 bytes (a malloc chunk of 64); a `WrappingLeafPathLink` adds its `wrap`.
class LeafPathLink: PathLink, @unchecked Sendable {
    /// A link whose path's value is its property's value itself.
    override convenience init(list: ObserverList, observation: PathObservationBase) {
        self.init(list: list, observation: observation, countsForWillChange: false) {
            entry, _, oldValue, newValue, _, stamp in
            LeafPathLink.forward(
                unsafeDowncast(entry, to: LeafPathLink.self), oldValue, newValue, stamp, wrap: noLeafWrap, wraps: false)
        }
    }

    /// Forwards a change heard by `link`, with the leaf conversion's `wrap` when it `wraps`.
    @inline(__always)
    static func forward(
        _ link: LeafPathLink, _ oldValue: BorrowedValue, _ newValue: BorrowedValue?, _ stamp: Int,
        wrap: @escaping LeafWrap,
        wraps: Bool
    ) {
        guard link.isActive else { return }
        if let newValue {
            // A later set of the property (in a callback before this link, or on another thread),
            // or an intermediate change the path has not handled yet, makes the setter's new value
            // possibly not the path's: then the path is evaluated.
            let trusted = (stamp == ReadGate.unstamped || link.list.stamp == stamp) && !link.changesInFlight
            if trusted {
                // Unretained: the link holds the observation, and the caller holds the link. A
                // local reference retained and released it (and the function's context) per change.
                Unmanaged.passUnretained(link.observation)._withUnsafeGuaranteedRef { observation in
                    observation.plan._withUnsafeGuaranteedRef {
                        $0.leafDelivery(observation, oldValue, newValue, wrap, wraps)
                    }
                }
            } else {
                link.observation.dependencyDidChange(
                    from: ObjectIdentifier(link), stamp: stamp,
                    leafOld: LeafOldValue(value: oldValue, wrap: wrap, wraps: wraps))
            }
        } else if link.changesInFlight {
            link.observation.dependencyWillChange(from: ObjectIdentifier(link), stamp: stamp)
        }
    }

    override final var deliversLeaf: Bool { true }

    /// Whether another change of the path is in flight.
    private final var changesInFlight: Bool {
        observation.intermediatesInFlight.load(ordering: .acquiring) != 0
    }

    /// Whether sets of its property run the `willChange` pass (see above).
    final func setHearsWillChange(_ hears: Bool) {
        list.setCountsForWillChange(self, hears)
    }
}

/// The leaf link of a path whose value is its last property's value made optional (an optional
/// chain ending in a non-optional property): it converts the values with `wrap`. A class of its
/// own rather than an optional `wrap`: unwrapping an optional function allocated a reabstraction
/// thunk on every change, and a flag beside it would start another malloc chunk.
///
/// Layout: 72 bytes (a malloc chunk of 80).
final class WrappingLeafPathLink: LeafPathLink, @unchecked Sendable {
    private let wrap: LeafWrap

    init(list: ObserverList, observation: PathObservationBase, wrap: @escaping LeafWrap) {
        self.wrap = wrap
        super.init(list: list, observation: observation, countsForWillChange: false) {
            entry, _, oldValue, newValue, _, stamp in
            let link = unsafeDowncast(entry, to: WrappingLeafPathLink.self)
            LeafPathLink.forward(link, oldValue, newValue, stamp, wrap: link.wrap, wraps: true)
        }
    }
}
