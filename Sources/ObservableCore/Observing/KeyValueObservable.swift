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
///
/// The features that find properties by name (string key paths,
/// ``ObservedPropertyListing/observeProperties(options:_:)``,
/// `ChangeTracker`, `UndoHistory`, ``ObservedPropertyListing/observationsDescription``) need the list
/// of the class's properties that `@KeyValueObservable` writes: mark the class with it.
public protocol KeyValueObservable: AnyObject {}

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
        // Inlinable so that the notify functions are specialised here, for the concrete Self and Value.
        ObservationToken(Registration.register(self, keyPath, options: options, handler: handler))
    }

    /// Observes the value at `keyPath` as ``observe(_:options:_:)`` does, and is told when `self` is
    /// deallocated: the end of the observation, as RxSwift's `observeWeakly` emits `nil` and completes,
    /// and SE-0506's tracking sends `.deinit`.
    ///
    /// `onObservedDeallocated` is called at most once: after the last change (no set can run while
    /// `self` is being deallocated, so no change follows it), on the thread that released `self`,
    /// during its deinitialisation. It is never called after the token's `cancel()` has returned (a
    /// cancelled observation has no end to report), nor when the observation was never active (a key
    /// path that reads no `@Observed` property). So keep the token where the end should be heard: a
    /// token released together with the object (locals of one scope) may cancel first, and then
    /// there is no end to report. The object is gone by then, so the closure gets
    /// nothing; capture its identity beforehand if it must say which one ended.
    ///
    /// ```swift
    /// let token = person.observe(\.name) { _, change in
    ///     print("name:", change.newValue!)
    /// } onObservedDeallocated: {
    ///     print("person is gone")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: What to observe, rooted at this object.
    ///   - options: What each ``ObservedChange`` carries and when it is sent; `[.old, .new]` by default.
    ///   - handler: Called with this object and the change.
    ///   - onObservedDeallocated: Called once when this object is deallocated while observed.
    /// - Returns: The token that keeps the observation alive.
    @inlinable
    public func observe<Value>(
        _ keyPath: KeyPath<Self, Value>,
        options: ObservationOptions = [.old, .new],
        _ handler: @escaping (Self, ObservedChange<Value>) -> Void,
        onObservedDeallocated: @escaping () -> Void
    ) -> ObservationToken {
        // Called on the thread that releases `self`, as `handler` is called on the setting thread:
        // neither is `@Sendable`, as for `NSObject.observe`.
        nonisolated(unsafe) let ended = onObservedDeallocated
        return ObservationToken(
            Registration.register(
                self, keyPath, options: options, onObservedDeallocated: { ended() }, handler: handler))
    }
}
