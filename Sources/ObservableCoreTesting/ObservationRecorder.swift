import Foundation
@_spi(Testing) import ObservableCore

/// Records the changes of an object's key paths, in order, so that a test asserts them in one line.
///
/// ```swift
/// let person = Person()
/// let recorder = ObservationRecorder(person, \.name, \.age)
/// person.name = "Ann"
/// person.age = 3
/// #expect(recorder.changes == [
///     .setting(\.name, old: "", new: "Ann"),
///     .setting(\.age, old: 0, new: 3),
/// ])
/// ```
///
/// Each key path is observed as ``KeyValueObservable/observe(_:options:_:)`` does (nested paths
/// re-wired, computed properties followed), from the moment it is recorded until ``stop()`` or the
/// recorder's release. The recorder does not keep the object alive; ``observedWasDeallocated`` says
/// whether it has ended. Changes made on any thread are recorded, in the order their
/// handlers ran.
///
/// The values must be `Equatable`. To record a property holding an object, record an `Equatable` path
/// through it (`\.address?.city`), or make the class `Equatable`.
public final class ObservationRecorder<Root: KeyValueObservable>: @unchecked Sendable {
    /// What the recorder holds; the handlers append to `recorded` and never run user code under it.
    private struct State {
        var recorded: [RecordedChange<Root>] = []
        var tokens: [ObservationToken] = []
    }

    /// A pthread mutex, which ThreadSanitizer sees (it does not see `Mutex`'s on Linux).
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var stateStorage = State()
    private weak var object: Root?

    /// Starts recording `keyPaths` of `object`, each with `options`.
    ///
    /// - Parameters:
    ///   - object: The object observed; not kept alive.
    ///   - keyPaths: What to record, in any number, each with its own value type.
    ///   - options: What each change carries; `[.old, .new]` by default. With `.initial`, each key
    ///     path's current value is recorded first, in the order given.
    public init<each Value: Equatable>(
        _ object: Root, _ keyPaths: repeat KeyPath<Root, each Value>, options: ObservationOptions = [.old, .new]
    ) {
        self.object = object
        // So that the recorded changes name the properties of a `@KeyValueObservable` class.
        _learnSlotNames(of: object)
        for keyPath in repeat each keyPaths {
            record(keyPath, options: options)
        }
    }

    /// Records one more key path of the object, from now on; nothing if the object is gone.
    @discardableResult
    public func record<Value: Equatable>(
        _ keyPath: KeyPath<Root, Value>, options: ObservationOptions = [.old, .new]
    ) -> Self {
        guard let object else { return self }
        // `weak`: a handler already running on another thread when the recorder is released finishes.
        // The plain `observe`, so that a recorder exercises the observations users make.
        let token = object.observe(keyPath, options: options) { [weak self] _, change in
            guard let self else { return }
            let change = RecordedChange(change, of: keyPath)
            withState { $0.recorded.append(change) }
        }
        withState { $0.tokens.append(token) }
        return self
    }

    /// Every change recorded so far, in the order the handlers ran.
    public var changes: [RecordedChange<Root>] {
        withState { $0.recorded }
    }

    /// Whether the object has been deallocated (which ends its observations).
    public var observedWasDeallocated: Bool {
        object == nil
    }

    /// Forgets the changes recorded so far and goes on recording: a test's "from here on".
    public func removeAll() {
        withState { $0.recorded.removeAll() }
    }

    /// Stops recording; the changes recorded so far stay.
    public func stop() {
        let stopped = withState { state in
            defer { state.tokens.removeAll() }
            return state.tokens
        }
        for token in stopped { token.cancel() }
    }

    private func withState<Result>(_ body: (inout State) -> Result) -> Result {
        lock.withLock { body(&stateStorage) }
    }
}
