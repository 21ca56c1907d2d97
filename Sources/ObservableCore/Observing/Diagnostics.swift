/// Run-time messages about misuse that cannot be a compile-time error.
enum Diagnostics {
    private static let lock = Lock()
    /// The messages sent, in order, each once; the tests read them (`DiagnosticsTests`). Guarded by
    /// `lock`.
    nonisolated(unsafe) private static var sent: [String] = []

    /// The messages reported so far, in order (debug builds; empty in release builds).
    static var messages: [String] { lock.withLock { sent } }

    /// `observe` was given a key path that reads no `@Observed` property (`\.self`, or a plain
    /// stored property): the observation can never notify. Its token is inactive from the start;
    /// debug builds also say so on standard error, once per key path.
    static func warnNeverNotifies(_ keyPath: AnyKeyPath) {
        report(
            """
            observing \(keyPath) can never notify: it reads no @Observed property. \
            Mark the stored properties it reads @Observed.
            """)
    }

    /// `observeProperties` was called on an object with no `@Observed` property: the observation
    /// can never notify. Its token is inactive from the start; debug builds also say so.
    static func warnNoObservedProperties(_ type: Any.Type) {
        report(
            """
            observing the properties of a \(type) can never notify: it has no @Observed property. \
            Mark its stored properties @Observed, or the class @KeyValueObservable.
            """)
    }

    /// An observation of a graph reached an object whose class no `@KeyValueObservable` lists: its
    /// properties cannot be found, so its changes are not heard. Debug builds say so, once per class.
    static func warnNotListed(_ type: Any.Type) {
        report(
            """
            observing a graph reached a \(type), whose properties are not observed: it is not \
            @KeyValueObservable, whose list of properties whole-object observation finds them in. Mark \
            the class @KeyValueObservable.
            """)
    }

    /// `observe` was given a key path with a force unwrap (`\.maybe!.name`): nothing is observed,
    /// since the library would evaluate it after changes, and it traps once the optional is `nil`.
    /// Its token is inactive from the start; debug builds also say so on standard error.
    static func warnForceUnwrap(_ keyPath: AnyKeyPath) {
        report(
            """
            observing \(keyPath) is refused: it force-unwraps an optional ('!'), and the library \
            re-evaluates the path after every change of what it reads, which would trap once that \
            optional is nil. Use optional chaining ('?.') instead. Nothing is observed.
            """)
    }

    /// `didChangeValue(for:)` without a matching `willChangeValue(for:)` on this thread: nothing is sent.
    static func warnUnbalancedDidChange(_ keyPath: AnyKeyPath) {
        report(
            """
            didChangeValue(for: \(keyPath)) without a matching willChangeValue(for:) on this thread \
            sends nothing. Pair them, or use notifyingChange(of:_:).
            """)
    }

    /// A controller was asked to observe an empty list of key paths: it observes nothing, as it
    /// should, but a caller that built the list wrongly would never know (KVOController asserted).
    static func warnNoKeyPaths(_ objectType: Any.Type) {
        report(
            """
            ObservationController.observe(_:keyPaths:) was given no key paths for a \(objectType): \
            nothing is observed.
            """)
    }

    /// A controller observed a pair (object, key path) it was already observing, the key path `name`d
    /// as written: the new handler or action replaces the earlier one (one observation per pair, as in
    /// KVOController).
    static func warnReplacedObservation(named name: String) {
        report(
            """
            ObservationController observed \(name) of an object it was already observing: the new \
            handler or action replaces the earlier one (one observation per object and key path).
            """)
    }

    /// Sends `text` once per process: each message says what and where, so it is its own key.
    private static func report(_ text: String) {
        #if DEBUG
        let message = "ObservableCore: \(text) (Reported once, in debug builds.)"
        let isFirst = lock.withLock {
            guard !sent.contains(message) else { return false }
            sent.append(message)
            return true
        }
        guard isFirst else { return }
        StandardError.send(message + "\n")
        #endif
    }
}
