// expect-error: '@Observed' requires a copyable type
// expect-error: instance method 'access(_:_:chained:)' requires that 'Handle' conform to 'Copyable'
// The compiler adds one error of its own beside ours: "instance method 'access(_:_:chained:)' requires
// that 'Handle' conform to 'Copyable'", from the getter's key path. Swift cannot form a key path to a
// noncopyable value, so no overload can take it, and the macro cannot tell from `= Handle()` that the
// type is noncopyable. All five point at the `@Observed` line.
import ObservableCore

struct Handle: ~Copyable {
    var descriptor = 0
}

final class File: KeyValueObservable {
    @Observed var handle = Handle()
}
