import Synchronization

/// What a token (or a controller) holds: something that can be cancelled.
@usableFromInline
protocol ObservationCore: AnyObject, Sendable {
    /// `false` once cancelled or once the observed object was deallocated.
    var isActive: Bool { get }
    /// Ends the observation: idempotent, callable from any thread and from inside any callback.
    /// After it returns no new callback of this observation starts.
    func cancel()
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

    @inlinable
    init(observation: DirectObservation, slotOffset: Int?, leafDelivery: @escaping LeafDelivery) {
        self.observation = observation
        self.slotOffset = slotOffset
        self.leafDelivery = leafDelivery
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
        handler: @escaping (Root, ObservedChange<Value>) -> Void
    ) -> DirectRoute {
        let (keyPath, slotOffset) = InternedKeyPath.resolve(keyPath, rootType: type(of: root))
        // The default options get a function of their own, with the option tests folded away.
        let notify: EntryNotification = options == [.old, .new]
            ? { notifyDirect(Root.self, Value.self, $0, $1, $2, $3, $4, options: [.old, .new]) }
            : { notifyDirect(Root.self, Value.self, $0, $1, $2, $3, $4, options: nil) }
        // With the default options, an observation of its own class: a set recognises it by that
        // and calls its handler with the change it built once (see `EntryRun.deliverDidChange`).
        let observation = options == [.old, .new]
            ? DefaultOptionsObservation(keyPath: keyPath, handler: handler, notify: notify)
            : TypedDirectObservation(options: options, keyPath: keyPath, handler: handler, notify: notify)
        return DirectRoute(observation: observation, slotOffset: slotOffset, leafDelivery: { observation, old, new, wrap in
            unsafeDowncast(observation, to: PathObservation<Root, Value>.self).deliverLeaf(old, new, wrap)
        })
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
class DirectObservation: ListEntry, ObservationCore, @unchecked Sendable {
    // Small fields first: they fill the padding after the superclass's. Whether the observation is
    // active is the superclass's `state` (non-zero while active).
    @usableFromInline let options: ObservationOptions
    @usableFromInline let keyPath: InternedKeyPath
    // Written once by `register`, before the list publishes the observation (under the list's lock);
    // read after that only.
    @exclusivity(unchecked) private var list: ObserverList?
    @exclusivity(unchecked) private var onObservedDeallocated: DeallocationHook?

    /// `notify` checks ``isActive`` before calling anything: a cancelled observation is never called.
    @usableFromInline
    init(options: ObservationOptions, keyPath: InternedKeyPath, directClass: AnyClass? = nil,
         notify: @escaping EntryNotification) {
        self.options = options
        self.keyPath = keyPath
        super.init(wantsWillChange: options.contains(.prior), directClass: directClass, notify: notify)
    }

    /// Adds the observation to `list`; it is ended at once if the object is being deallocated.
    func register(in list: ObserverList, onObservedDeallocated: DeallocationHook?) {
        self.list = list
        self.onObservedDeallocated = onObservedDeallocated
        if !list.add(self) { state.store(0, ordering: .releasing) }
    }

    @inlinable
    var isActive: Bool { state.load(ordering: .acquiring) != 0 }

    @usableFromInline
    func cancel() {
        if state.exchange(0, ordering: .acquiringAndReleasing) != 0 {
            list?.remove(self)
        }
    }

    override func listEnded() {
        if state.exchange(0, ordering: .acquiringAndReleasing) != 0 {
            onObservedDeallocated?()
        }
    }
}

/// A direct observation with its handler, typed. Created (and its `notify` function specialised)
/// where `observe` is called.
@usableFromInline
class TypedDirectObservation<Root: AnyObject, Value>: DirectObservation, @unchecked Sendable {
    @usableFromInline final let handler: (Root, ObservedChange<Value>) -> Void

    @inlinable
    init(options: ObservationOptions, keyPath: InternedKeyPath, handler: @escaping (Root, ObservedChange<Value>) -> Void,
         directClass: AnyClass? = nil, notify: @escaping EntryNotification) {
        self.handler = handler
        super.init(options: options, keyPath: keyPath, directClass: directClass, notify: notify)
    }
}

/// A direct observation with the default options (`[.old, .new]`).
///
/// A set whose object is statically a `Root` recognises it by its class, kept in `state` while the
/// observation is active (so no type is assumed), and
/// calls its handler itself, with the change it built once for all such observations (see
/// `EntryRun.deliverDidChange`); every other caller goes through `notify`, as for any observation.
@usableFromInline
final class DefaultOptionsObservation<Root: AnyObject, Value>: TypedDirectObservation<Root, Value>, @unchecked Sendable {
    @inlinable
    init(keyPath: InternedKeyPath, handler: @escaping (Root, ObservedChange<Value>) -> Void,
         notify: @escaping EntryNotification) {
        super.init(options: [.old, .new], keyPath: keyPath, handler: handler,
                   directClass: DefaultOptionsObservation<Root, Value>.self, notify: notify)
    }
}
