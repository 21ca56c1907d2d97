// expect-error: '@Observed' cannot be applied to a 'nonisolated(unsafe)' property
// expect-error: 'nonisolated' cannot be applied to a mutable stored property of a '@MainActor' class
// expect-error-count: 2
import ObservableCore

@MainActor final class Screen: KeyValueObservable {
    @Observed nonisolated(unsafe) var hits: Int = 0
    @Observed nonisolated var misses: Int = 0
}
