/// Run-time messages about misuse that cannot be a compile-time error.
enum Diagnostics {
    private static let lock = Lock()
    /// The messages sent, in order, each once (`DiagnosticsTests`). Guarded by `lock`.
    nonisolated(unsafe) private static var sent: [String] = []

    /// The messages reported so far, in order (debug builds; empty in release builds).
    static var messages: [String] { lock.withLock { sent } }

    /// A key path that reads no `@Observed` property: its token is inactive from the start.
    static func warnNeverNotifies(_ keyPath: AnyKeyPath) {
        report(
            """
            observing \(keyPath) can never notify: it reads no @Observed property. \
            Mark the stored properties it reads @Observed.
            """)
    }

    /// `observeProperties` on an object with no `@Observed` property: its token is inactive.
    static func warnNoObservedProperties(_ type: Any.Type) {
        report(
            """
            observing the properties of a \(type) can never notify: it has no @Observed property. \
            Mark its stored properties @Observed, or the class @KeyValueObservable.
            """)
    }

    /// A graph reached an object whose class is not listed: its changes are not heard.
    static func warnNotListed(_ type: Any.Type) {
        report(
            """
            observing a graph reached a \(type), whose properties are not observed: it is not \
            @KeyValueObservable, whose list of properties whole-object observation finds them in. Mark \
            the class @KeyValueObservable.
            """)
    }

    /// A key path with a force unwrap, which re-evaluation would trap on: nothing is observed.
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

    /// A controller asked to observe no key paths (KVOController asserted).
    static func warnNoKeyPaths(_ objectType: Any.Type) {
        report(
            """
            ObservationController.observe(_:keyPaths:) was given no key paths for a \(objectType): \
            nothing is observed.
            """)
    }

    /// A controller observed a pair it already observed: the new handler replaces the earlier one.
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
