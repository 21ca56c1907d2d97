// expect-error: '@Observed' requires a copyable type
// expect-error: instance method 'access' requires that 'Handle' conform to 'Copyable'
// expect-error: instance method 'willSetIfObserved' requires that 'Handle' conform to 'Copyable'
// expect-error: key path cannot refer to noncopyable type 'Handle'
// The compiler adds errors of its own beside ours, from the key paths the accessors form (the
// getter's to report reads, the setter's to name the property to a whole-object observation) and
// from the calls that have no overload for a noncopyable value (`_modify`'s `willSetIfObserved`):
// Swift cannot form a key path to a noncopyable value, so no overload can take one, and the macro
// cannot tell from `= Handle()` that the type is noncopyable. All point at the `@Observed` line.
import ObservableCore

struct Handle: ~Copyable {
    var descriptor = 0
}

final class File: KeyValueObservable {
    @Observed var handle = Handle()
}
