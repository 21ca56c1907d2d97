/// A class whose `@Observed` properties can be observed with ``observe(_:options:_:)``.
///
/// Conform, and mark the stored properties to observe with `@Observed`:
///
/// ```swift
/// final class Person: KeyValueObservable {
///     @Observed var name = ""
/// }
/// let person = Person()
/// let token = person.observe(\.name, options: [.old, .new]) { person, change in
///     print(change.oldValue!, "->", change.newValue!)
/// }
/// person.name = "Ann"   // prints " -> Ann"
/// ```
public protocol KeyValueObservable: AnyObject {}

/// Marks every stored `var` of the class `@Observed` and conforms it to ``KeyValueObservable``.
///
/// ```swift
/// @KeyValueObservable
/// final class Person {
///     var name = ""              // @Observed
///     var age = 0                // @Observed
///     @Unobserved var cache = 0  // left alone
///     let id = 1                 // constants, computed, static, lazy and wrapped properties too
/// }
/// ```
///
/// A property can still carry its own `@Observed(…)` with options, which the class attribute
/// leaves as written. Overrides are not marked (write `@Observed override var` where wanted). A
/// stored `var` declaring several bindings (`var a = 1, b = 2`) is an error: declare them
/// separately, or mark the declaration `@Unobserved`.
@attached(memberAttribute)
@attached(extension, conformances: KeyValueObservable)
public macro KeyValueObservable() = #externalMacro(module: "ObservableMacros", type: "KeyValueObservableMacro")

/// Leaves one stored property of a `@KeyValueObservable` class unobserved: sets notify nobody, and
/// key paths through it do not re-wire when it changes (it is read, but is not a trigger).
@attached(peer)
public macro Unobserved() = #externalMacro(module: "ObservableMacros", type: "UnobservedMacro")

extension KeyValueObservable {
    /// Observes the value at `keyPath`, calling `handler` synchronously on the setting thread.
    ///
    /// `keyPath` may be one `@Observed` property (`\.name`), a path through several
    /// (`\.address?.city`), or a computed property reading `@Observed` ones. Every `@Observed`
    /// property the path reads is a trigger; when an intermediate object is replaced the observation
    /// moves to the new one and the old one no longer notifies. A component that is not `@Observed`
    /// is read but is not a trigger. A `nil` intermediate gives a `nil` value.
    ///
    /// Every set notifies, even when the new value equals the old one, as in Cocoa.
    /// The observation holds neither the observer nor `self` and ends when the token is cancelled
    /// or released, or when `self` is deallocated.
    ///
    /// ```swift
    /// let token = person.observe(\.address?.city, options: [.initial, .new]) { person, change in
    ///     print("city:", change.newValue as Any)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: What to observe, rooted at this object.
    ///   - options: What each ``ObservedChange`` carries and when it is sent; `[.old, .new]` by default.
    ///   - handler: Called with this object and the change.
    /// - Returns: The token that keeps the observation alive.
    @inlinable
    public func observe<Value>(
        _ keyPath: KeyPath<Self, Value>,
        options: ObservationOptions = [.old, .new],
        _ handler: @escaping (Self, ObservedChange<Value>) -> Void
    ) -> ObservationToken {
        // Inlinable so that the notify function is specialised here, for the concrete Self and Value.
        let observation = Registration.observe(
            self, keyPath, options: options, handler: handler,
            direct: Delivery.direct(root: self, keyPath: keyPath, options: options, handler: handler))
        return ObservationToken(observation)
    }
}

@usableFromInline
enum Registration {
    /// Resolves `keyPath` and registers the cheapest observation that is exact for it; delivers
    /// `.initial` after registering, as Cocoa does. `direct` carries the direct observation, built with
    /// its specialised notify function by the `@inlinable` caller, and, once known, the property's slot.
    ///
    /// The first registration of a key path on a class evaluates it with tracking; when that shows it
    /// is exactly one `@Observed` property of the root, the slot's position is remembered, and later
    /// registrations of that key path on that class go straight to the slot.
    @usableFromInline
    static func observe<Root: AnyObject, Value>(
        _ root: Root, _ keyPath: KeyPath<Root, Value>, options: ObservationOptions,
        handler: @escaping (Root, ObservedChange<Value>) -> Void,
        direct: DirectRoute
    ) -> ObservationCore {
        if let offset = direct.slotOffset {
            let slot = UnsafeRawPointer(Unmanaged.passUnretained(root).toOpaque())
                .advanced(by: offset).assumingMemoryBound(to: _$ObservationSlot.self)
            // `root`, which the caller holds, owns the slot and the slot the list.
            let observation = observeDirectly(
                slot.pointee.unretainedObservers(), direct: direct)
            if options.contains(.initial), observation.isActive {
                deliverInitial(Tracking.value(root, keyPath), of: root, options: options, keyPath: direct.keyPath, handler)
            }
            return observation
        }
        if direct.keyPath.forceUnwraps {
            // Refused before any evaluation: the path would trap once its optional is nil.
            Diagnostics.warnForceUnwrap(keyPath)
            _ = direct.observation.claimEnd()
            return direct.observation
        }
        let (value, accesses) = Tracking.evaluate(root, keyPath)
        if let list = accesses.directList(of: root, keyPath) {
            direct.keyPath.learnDirectSlot(of: root, list: list)
            let observation = withExtendedLifetime(list) {
                observeDirectly(Unmanaged.passUnretained(list), direct: direct)
            }
            if options.contains(.initial), observation.isActive {
                deliverInitial(value, of: root, options: options, keyPath: direct.keyPath, handler)
            }
            return observation
        }
        if accesses.isEmpty { Diagnostics.warnNeverNotifies(keyPath) }
        return observePath(
            root, keyPath: direct.keyPath, evaluate: { $0[keyPath: keyPath] }, evaluated: (value, accesses), options: options,
            onObservedDeallocated: direct.onObservedDeallocated, leafDelivery: direct.leafDelivery, handler: handler)
    }

    /// Delivers `.initial`. Out of line: the `ObservedChange<Value>` type metadata it needs (this code is
    /// not specialised) is then looked up only when an initial value is asked for, not on every
    /// registration (it was an eighth of an observe + cancel pair).
    @inline(never)
    private static func deliverInitial<Root: AnyObject, Value>(
        _ value: Value, of root: Root, options: ObservationOptions, keyPath: InternedKeyPath,
        _ handler: (Root, ObservedChange<Value>) -> Void
    ) {
        handler(root, options.change(old: nil, new: value, isPrior: false, keyPath: keyPath))
    }

    /// Registers the direct observation in `list`. Not generic: no type metadata is needed to register.
    private static func observeDirectly(
        _ list: Unmanaged<ObserverList>, direct: DirectRoute
    ) -> DirectObservation {
        direct.observation.register(in: list)
        return direct.observation
    }

    /// Registers a path observation in the lists a first tracking evaluation found, and delivers
    /// `.initial` with the value it read.
    static func observePath<Root: AnyObject, Value>(
        _ root: Root, keyPath: InternedKeyPath, evaluate: @escaping (Root) -> Value,
        evaluated: (value: Value, accesses: [TrackedAccess]), options: ObservationOptions,
        onObservedDeallocated: DeallocationHook?, leafDelivery: LeafDelivery? = nil,
        handler: @escaping (Root, ObservedChange<Value>) -> Void
    ) -> PathObservation<Root, Value> {
        let observation = PathObservation(
            root: root, keyPath: keyPath, evaluate: evaluate, options: options,
            onObservedDeallocated: onObservedDeallocated, leafDelivery: leafDelivery, handler: handler)
        observation.register(evaluated.accesses)
        if options.contains(.initial) { observation.deliverInitial(root, evaluated.value) }
        observation.endIfUnlinked()
        return observation
    }
}
