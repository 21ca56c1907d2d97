import Synchronization
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// What a token refers to: an observation that can be cancelled, with the `state` that says whether
/// it is still active. The base of the direct observations (through `ListEntry`, whose entries all
/// carry it) and of the path observations.
///
/// A token does not keep its observation alive: the observed side owns it (see `ObservationToken`).
/// The token keeps only the object's *memory* (an `unowned` reference), so it may look at `state`
/// after the observation has been deinitialised, and it takes a strong reference only after
/// claiming the observation for cancellation: `claimCancel` moves `state` from active to
/// `cancelling`, and everything that could release an observation's last owner (the end of its
/// observed object, a path whose dependencies are gone) first ends it through `claimEnd`, which
/// waits while a cancellation is claimed. So a claimed observation is alive until the canceller has
/// retained it and set `state` to `0` (a few instructions; no lock, no user code in between).
/// Invariant: `state` is `0` before the last owning reference to an observation is released.
///
/// Why not a `weak` reference from the token: the first weak reference to an object allocates a side
/// table and moves the object's reference counts into it, and creating, loading and destroying the
/// weak reference was a large part of an observe + cancel pair (BENCHMARKS.md, "What changed").
@usableFromInline
class ObservationCore: @unchecked Sendable {
    /// `1` while active, `cancelling` while a token cancels it, `0` once ended (cancelled, or its
    /// observed object deallocated). One byte, so that the subclasses' small fields share its word.
    @usableFromInline
    final let state: Atomic<UInt8>

    @inlinable static var cancelling: UInt8 { 2 }

    @usableFromInline
    init() {
        self.state = Atomic(1)
    }

    /// `false` once cancelled or once the observed object was deallocated.
    @inlinable
    final var isActive: Bool { state.load(ordering: .acquiring) != 0 }

    /// For a token: claims the observation for cancellation, `false` if it has ended already. May be
    /// called on an observation that has been deinitialised (its memory is still allocated; only
    /// `state`, which has no destructor, is read). A cancellation claimed by another thread (two
    /// `cancel()` calls on one token at once) is waited for, so that on return the observation is
    /// ended either way. Lock-free on the token's side; see the type's documentation.
    final func claimCancel() -> Bool {
        claim(settingTo: Self.cancelling)
    }

    /// For a token, after `claimCancel` succeeded and with the observation retained: ends it and
    /// undoes its registration.
    final func finishCancel() {
        state.store(0, ordering: .releasing)
        didCancel()
    }

    /// Ends the observation for any reason but a token's cancel: `true` for the call that ended it.
    /// Waits while a token holds a claim (which it drops after a few instructions).
    final func claimEnd() -> Bool {
        claim(settingTo: 0)
    }

    /// Moves an active `state` to `newState`: `false` if it had ended; waits while another thread
    /// holds a cancellation claim (a few instructions), yielding in case it was preempted.
    private final func claim(settingTo newState: UInt8) -> Bool {
        var current = state.load(ordering: .acquiring)
        while true {
            if current == 0 { return false }
            if current == Self.cancelling {
                sched_yield()
                current = state.load(ordering: .acquiring)
                continue
            }
            let (exchanged, now) = state.compareExchange(
                expected: current, desired: newState, ordering: .acquiringAndReleasing)
            if exchanged { return true }
            current = now
        }
    }

    /// Undoes the registration after `finishCancel` ended the observation. Overridden.
    func didCancel() {}
}

/// Told once when an observation ends because its observed object was deallocated (never when it
/// is cancelled). Runs on the thread that released the object, during its deinitialisation.
@usableFromInline
typealias DeallocationHook = @Sendable () -> Void

/// What a registration needs to observe one key path of one root directly: the observation, built and
/// specialised by the `@inlinable` caller but not registered yet, and, once a registration has proved
/// it, where the property's slot is.
@usableFromInline
struct DirectRoute {
    @usableFromInline let observation: DirectObservation
    /// Byte offset of the `@Observed` slot in instances of the root's class, when this key path is
    /// known to be exactly that property there; `nil` until a tracking evaluation has shown it.
    @usableFromInline let slotOffset: Int?
    /// Should the key path turn out to be a path instead, its `PathObservation.deliverLeaf`,
    /// specialised by the same caller.
    @usableFromInline let leafDelivery: LeafDelivery
    /// Told when the observation ends because the observed object was deallocated, whichever kind of
    /// observation the key path turns out to need.
    @usableFromInline let onObservedDeallocated: DeallocationHook?

    @inlinable
    init(observation: DirectObservation, slotOffset: Int?, leafDelivery: @escaping LeafDelivery,
         onObservedDeallocated: DeallocationHook?) {
        self.observation = observation
        self.slotOffset = slotOffset
        self.leafDelivery = leafDelivery
        self.onObservedDeallocated = onObservedDeallocated
    }

    var keyPath: InternedKeyPath { observation.keyPath }
}

@usableFromInline
enum Delivery {
    /// Builds the direct observation of `keyPath` on `root`, to be registered if the key path turns out
    /// to be one `@Observed` property (and dropped otherwise). `@inlinable`, so it is specialised where
    /// `observe` is called: the typed work is compiled for the concrete `Root` and `Value`.
    @inlinable
    static func direct<Root: AnyObject, Value>(
        root: Root,
        keyPath: KeyPath<Root, Value>,
        options: ObservationOptions,
        onObservedDeallocated: DeallocationHook? = nil,
        handler: @escaping (Root, ObservedChange<Value>) -> Void
    ) -> DirectRoute {
        let (keyPath, slotOffset) = InternedKeyPath.resolve(keyPath, rootType: type(of: root))
        // The default options get a function of their own, with the option tests folded away.
        let notify: EntryNotification = options == [.old, .new]
            ? { entry, object, old, new, mutation, _ in
                notifyDirect(Root.self, Value.self, entry, object, old, new, mutation, options: [.old, .new])
            }
            : { entry, object, old, new, mutation, _ in
                notifyDirect(Root.self, Value.self, entry, object, old, new, mutation, options: nil)
            }
        // With the default options, an observation of its own class: a set recognises it by that
        // and calls its handler with the change it built once (see `EntryRun.deliverDidChange`).
        // A deallocation hook (controllers, change sequences) makes a class of its own, so that the
        // others carry no field for it.
        let observation: DirectObservation = if let onObservedDeallocated {
            HookedDirectObservation(
                options: options, keyPath: keyPath, handler: handler, onObservedDeallocated: onObservedDeallocated,
                notify: notify)
        } else if options == [.old, .new] {
            DefaultOptionsObservation(keyPath: keyPath, handler: handler, notify: notify)
        } else {
            TypedDirectObservation(options: options, keyPath: keyPath, handler: handler, notify: notify)
        }
        return DirectRoute(observation: observation, slotOffset: slotOffset, leafDelivery: { observation, old, new, wrap, wraps in
            unsafeDowncast(observation, to: PathObservation<Root, Value>.self).deliverLeaf(old, new, wrap, wraps: wraps)
        }, onObservedDeallocated: onObservedDeallocated)
    }

    /// The body of a direct observation's notify function: `entry` is the observation, `object` the
    /// observed instance, the values are of type `Value`. `options` is a constant where the caller
    /// knows them (the tests on it then fold away), else `nil`: the observation's own.
    @inlinable @inline(__always)
    static func notifyDirect<Root: AnyObject, Value>(
        _: Root.Type, _: Value.Type, _ entry: ListEntry, _ object: AnyObject, _ oldValue: UnsafeRawPointer,
        _ newValue: UnsafeRawPointer?, _ mutation: CollectionMutation?, options: ObservationOptions?
    ) {
        // Only this observation's list entry calls this function, with itself.
        let observation = unsafeDowncast(entry, to: TypedDirectObservation<Root, Value>.self)
        guard observation.isActive else { return }
        // The list belongs to the observed instance and its setter passes that instance.
        let root = unsafeDowncast(object, to: Root.self)
        let old = oldValue.assumingMemoryBound(to: Value.self)
        let options = options ?? observation.options
        if let newValue {
            let new = newValue.assumingMemoryBound(to: Value.self)
            if let mutation {
                observation.handler(root, options.change(
                    old: old.pointee, new: new.pointee, isPrior: false, keyPath: observation.keyPath, mutation: mutation))
            } else {
                // A constant `nil` mutation: the change is built without retaining and releasing it.
                observation.handler(root, options.change(
                    old: old.pointee, new: new.pointee, isPrior: false, keyPath: observation.keyPath))
            }
        } else {
            observation.handler(root, options.change(
                old: old.pointee, new: nil, isPrior: true, keyPath: observation.keyPath))
        }
    }
}

/// An observation of one `@Observed` property of the observed object itself (`\.name`).
///
/// Registered directly in the property's list and fed the setter's own old and new values: no key
/// path evaluation, no boxing, one indirect call of its `notify` function per notification. Not
/// generic, so the list, the token and registration handle it without type metadata; the typed
/// handler lives in the subclass that function knows.
@usableFromInline
class DirectObservation: ListEntry, @unchecked Sendable {
    // Whether the observation is active is `ObservationCore.state`; its options are
    // `ListEntry.options` (they fill the padding after `state`).
    @usableFromInline let keyPath: InternedKeyPath
    // Written once by `register`, before the list publishes the observation (under the list's lock);
    // read after that only.
    // Retained by hand (released in `deinit`), so that `didCancel` reaches it without a retain and
    // release around the call.
    @exclusivity(unchecked) private var list: Unmanaged<ObserverList>?

    /// `notify` checks ``isActive`` before calling anything: a cancelled observation is never called.
    @usableFromInline
    init(options: ObservationOptions, keyPath: InternedKeyPath, notify: @escaping EntryNotification) {
        self.keyPath = keyPath
        super.init(options: options, notify: notify)
    }

    /// Adds the observation to `list`, which its caller keeps alive; it is ended at once if the
    /// object is being deallocated.
    func register(in list: Unmanaged<ObserverList>) {
        self.list = list.retain()
        if !list._withUnsafeGuaranteedRef({ $0.add(self) }) { state.store(0, ordering: .releasing) }
    }

    override func didCancel() {
        // The token that cancels holds this observation, and with it the list.
        list?._withUnsafeGuaranteedRef { $0.remove(self) }
    }

    override func listEnded() {
        _ = claimEnd()
    }

    deinit {
        list?.release()
    }
}

/// A direct observation with its handler, typed. Created (and its `notify` function specialised)
/// where `observe` is called.
@usableFromInline
class TypedDirectObservation<Root: AnyObject, Value>: DirectObservation, @unchecked Sendable {
    @usableFromInline final let handler: (Root, ObservedChange<Value>) -> Void

    @inlinable
    init(options: ObservationOptions, keyPath: InternedKeyPath, handler: @escaping (Root, ObservedChange<Value>) -> Void,
         notify: @escaping EntryNotification) {
        self.handler = handler
        super.init(options: options, keyPath: keyPath, notify: notify)
    }
}

/// A direct observation with the default options (`[.old, .new]`).
///
/// A set whose object is statically a `Root` recognises it by its class (so no type is assumed)
/// and, while it is active, calls its handler itself, with the change it built once for all such
/// observations (see `EntryRun.deliverDidChange`); every other caller goes through `notify`, as for
/// any observation.
@usableFromInline
final class DefaultOptionsObservation<Root: AnyObject, Value>: TypedDirectObservation<Root, Value>, @unchecked Sendable {
    @inlinable
    init(keyPath: InternedKeyPath, handler: @escaping (Root, ObservedChange<Value>) -> Void,
         notify: @escaping EntryNotification) {
        super.init(options: [.old, .new], keyPath: keyPath, handler: handler, notify: notify)
    }
}

/// A direct observation told when its observed object is deallocated (a controller's, a change
/// sequence's). A class of its own so that the other observations have no field for the hook
/// (16 bytes each); its default-options observations go through `notify` like any other kind.
@usableFromInline
final class HookedDirectObservation<Root: AnyObject, Value>: TypedDirectObservation<Root, Value>, @unchecked Sendable {
    @usableFromInline let onObservedDeallocated: DeallocationHook

    @inlinable
    init(options: ObservationOptions, keyPath: InternedKeyPath, handler: @escaping (Root, ObservedChange<Value>) -> Void,
         onObservedDeallocated: @escaping DeallocationHook, notify: @escaping EntryNotification) {
        self.onObservedDeallocated = onObservedDeallocated
        super.init(options: options, keyPath: keyPath, handler: handler, notify: notify)
    }

    override func listEnded() {
        if claimEnd() { onObservedDeallocated() }
    }
}
