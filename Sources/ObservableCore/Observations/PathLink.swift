import Synchronization

/// Something that depends on properties found by tracking: told before and after each of them
/// changes, and when one of their instances is deallocated.
protocol PathDependent: AnyObject, Sendable {
    /// Whether `dependencyWillChange` is wanted (old values or `.prior` notifications).
    var wantsWillChange: Bool { get }
    /// Before and after a change of one dependency, told by `source` (a link's identity, or `nil`
    /// for a change announced by hand) with the set's `stamp` (`ObserverList.stamp`): the two calls
    /// of one change carry the same pair.
    func dependencyWillChange(from source: ObjectIdentifier?, stamp: Int)
    /// `leafOld`: from the last property's link of a proven path whose setter's new value cannot be
    /// trusted (see `PathLink`), that setter's old value; the path is then evaluated for the new one.
    func dependencyDidChange(from source: ObjectIdentifier?, stamp: Int, leafOld: LeafOldValue?)
    /// Delivers a change of the last property of a path proven to be pure navigation (see
    /// `PathProof`), called with this dependent; `nil` where there is none.
    var leafDelivery: LeafDelivery? { get }
    func dependencyEnded(_ link: PathLink)
    /// Whether this observes `keyPath` on `root` (for manual notification of a computed property).
    func observes(_ root: AnyObject, _ keyPath: AnyKeyPath) -> Bool
}

/// The old value a proven path's last property had before a set, as its setter passed it, and how
/// the path's value is made from it (see `LeafConversion`).
struct LeafOldValue {
    let value: BorrowedValue
    let wrap: LeafWrap
    let wraps: Bool

    /// The path's value made from it.
    func value<Value>(as _: Value.Type) -> Value {
        wraps ? value.converted(by: wrap, to: Value.self) : value.read(as: Value.self)
    }
}

/// The part of a path observation that its links read without its lock.
@usableFromInline
class PathObservationBase: AnyObservation, @unchecked Sendable {
    /// Changes of the path's dependencies that have begun (their `willChange` reached a link) and are
    /// not yet handled (the path evaluated and re-linked). While there are any, the path may already
    /// have moved off the object of its last property's link.
    final let intermediatesInFlight = Atomic<Int>(0)

    @usableFromInline
    override init() {
        super.init()
    }
}

/// A list entry that forwards a property's changes to a path observation. Usually the values are
/// unused: the path is evaluated again, which gives its own old and new values. The link of the last
/// property of a path proven to be pure navigation (`leaf` given, see `PathProof`) forwards the
/// setter's values instead; it trusts them only when they are still the path's: its set is the
/// property's latest (`ObserverList.stamp`) and no other change of the path is in flight
/// (`PathObservationBase.intermediatesInFlight`, which the other links count from `willChange`).
/// Otherwise the path is evaluated. While a change is in flight the path may not read this property
/// at the moment, so a set of it beginning then records the path's value before the set, as the
/// other links do: for that, the path makes its leaf link count in the list's `willChangeCount`
/// only while something is in flight, so that a set of the leaf otherwise skips the `willChange`
/// pass altogether.
///
/// Once detached (the path moved off this property, or ended) a link forwards nothing, not even a
/// change already being delivered: its `state` turns `0`, as a cancelled observation's does.
final class PathLink: ListEntry, @unchecked Sendable {
    let list: ObserverList
    let dependent: PathObservationBase & PathDependent
    /// The dependent's `leafDelivery` when this link delivers leaf changes (`deliversLeaf`), else a
    /// function never called. Not optional: calling a `let` function in place needs no retain of
    /// its context, where unwrapping an optional one into a local retained and released it per change.
    private let leafDelivery: LeafDelivery
    /// Whether the link delivers its property's values as the path's (see above).
    let deliversLeaf: Bool
    /// The leaf conversion's `wrap` when it has one (`wraps`), else a function never called (not
    /// optional, like `leafDelivery`).
    private let wrap: LeafWrap
    private let wraps: Bool
    /// `dependent`, which this link holds, unretained: passing the existential retained and released
    /// the observation on every change.
    private let target: Unmanaged<PathObservationBase>

    init(list: ObserverList, dependent: PathObservationBase & PathDependent, leaf: LeafConversion?) {
        self.list = list
        self.dependent = dependent
        if leaf != nil, let delivery = dependent.leafDelivery {
            self.leafDelivery = delivery
            self.deliversLeaf = true
        } else {
            self.leafDelivery = Self.noDelivery
            self.deliversLeaf = false
        }
        if let wrap = leaf?.wrap {
            self.wrap = wrap
            self.wraps = true
        } else {
            self.wrap = noLeafWrap
            self.wraps = false
        }
        self.target = Unmanaged.passUnretained(dependent)
        // Every link can hear `willChange`: the path counts the changes in flight. A leaf's is
        // counted in the list only while the path has one (`setHearsWillChange`).
        super.init(options: .prior, countsForWillChange: leaf == nil) { entry, _, oldValue, newValue, _, stamp in
            let link = unsafeDowncast(entry, to: PathLink.self)
            guard link.isActive else { return }
            if let newValue {
                if link.deliversLeaf {
                    // A later set of the property (in a callback before this link, or on another
                    // thread), or an intermediate change the path has not handled yet, makes the
                    // setter's new value possibly not the path's: then the path is evaluated.
                    let trusted = (stamp == ReadGate.unstamped || link.list.stamp == stamp) && !link.changesInFlight
                    if trusted {
                        link.target._withUnsafeGuaranteedRef {
                            link.leafDelivery($0, oldValue, newValue, link.wrap, link.wraps)
                        }
                    } else {
                        link.dependent.dependencyDidChange(
                            from: ObjectIdentifier(link), stamp: stamp,
                            leafOld: LeafOldValue(value: oldValue, wrap: link.wrap, wraps: link.wraps))
                    }
                } else {
                    link.dependent.dependencyDidChange(from: ObjectIdentifier(link), stamp: stamp, leafOld: nil)
                }
            } else if !link.deliversLeaf || link.changesInFlight {
                link.dependent.dependencyWillChange(from: ObjectIdentifier(link), stamp: stamp)
            }
        }
    }

    private static func noDelivery(_: AnyObject, _: BorrowedValue, _: BorrowedValue, _: LeafWrap, _: Bool) {}

    /// Identity of the list the link sits in (one per instance and property).
    var listID: ObjectIdentifier { ObjectIdentifier(list) }

    /// Whether another change of the path is in flight (see `PathObservationBase`).
    private var changesInFlight: Bool {
        target._withUnsafeGuaranteedRef { $0.intermediatesInFlight.load(ordering: .acquiring) != 0 }
    }

    /// Removes the link from its list; idempotent.
    func detach() {
        state.store(0, ordering: .releasing)
        list.remove(self)
    }

    /// For a leaf link: whether sets of its property run the `willChange` pass (see above).
    func setHearsWillChange(_ hears: Bool) {
        list.setCountsForWillChange(self, hears)
    }

    override func listEnded() { dependent.dependencyEnded(self) }
}

extension ObserverList {
    /// The path observations linked into this list (for manual notification of computed properties).
    func pathDependents() -> [any PathDependent] {
        entries(of: PathLink.self).map(\.dependent)
    }

    /// Registers `dependent` to hear about every change of this property; `nil` if the list has ended.
    func attach(_ dependent: PathObservationBase & PathDependent, leaf: LeafConversion? = nil) -> PathLink? {
        let link = PathLink(list: self, dependent: dependent, leaf: leaf)
        return add(link) ? link : nil
    }
}
