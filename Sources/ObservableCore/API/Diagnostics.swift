/// Run-time messages about misuse that cannot be a compile-time error.
enum Diagnostics {
    private static let lock = Lock()
    nonisolated(unsafe) private static var reported: Set<AnyKeyPath> = []  // guarded by `lock`

    /// `observe` was given a key path that reads no `@Observed` property (`\.self`, or a plain
    /// stored property): the observation can never notify. Its token is inactive from the start;
    /// debug builds also say so on standard error, once per key path.
    static func warnNeverNotifies(_ keyPath: AnyKeyPath) {
        report(
            keyPath,
            """
            observing \(keyPath) can never notify: it reads no @Observed property. \
            Mark the stored properties it reads @Observed.
            """)
    }

    /// `observe` was given a key path with a force unwrap (`\.maybe!.name`): nothing is observed,
    /// since the library would evaluate it after changes, and it traps once the optional is `nil`.
    /// Its token is inactive from the start; debug builds also say so on standard error.
    static func warnForceUnwrap(_ keyPath: AnyKeyPath) {
        report(
            keyPath,
            """
            observing \(keyPath) is refused: it force-unwraps an optional ('!'), and the library \
            re-evaluates the path after every change of what it reads, which would trap once that \
            optional is nil. Use optional chaining ('?.') instead. Nothing is observed.
            """)
    }

    /// `didChangeValue(for:)` without a matching `willChangeValue(for:)` on this thread: nothing is sent.
    static func warnUnbalancedDidChange(_ keyPath: AnyKeyPath) {
        report(
            keyPath,
            """
            didChangeValue(for: \(keyPath)) without a matching willChangeValue(for:) on this thread \
            sends nothing. Pair them, or use notifyingChange(of:_:).
            """)
    }

    private static func report(_ keyPath: AnyKeyPath, _ text: String) {
        #if DEBUG
        let isFirst = lock.withLock { reported.insert(keyPath).inserted }
        guard isFirst else { return }
        StandardError.send("ObservableCore: \(text) (Reported once per key path, in debug builds.)\n")
        #endif
    }
}
