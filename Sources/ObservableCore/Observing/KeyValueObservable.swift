/// A class whose `@Observed` properties can be observed with ``observe(_:options:_:)``.
///
/// The features that find properties by name (string key paths, whole objects, `ChangeTracker`,
/// `UndoHistory`) need the list `@KeyValueObservable` writes: mark the class with it.
public protocol KeyValueObservable: AnyObject {}

extension KeyValueObservable {
    /// Observes the value at `keyPath`, calling `handler` synchronously on the setting thread.
    ///
    /// `keyPath` may be one `@Observed` property (`\.name`), a path (`\.address?.city`), which moves
    /// to a replaced intermediate object, or a computed property reading `@Observed` ones. Every set
    /// notifies, as in Cocoa. The observation ends when the token is cancelled or released, or when
    /// `self` is deallocated.
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

    /// ``observe(_:options:_:)``, told when `self` is deallocated: once, after the last change, on the
    /// releasing thread; never after `cancel()` has returned, nor for an observation never active.
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
