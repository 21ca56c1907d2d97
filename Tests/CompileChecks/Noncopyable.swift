// expect-error: '@Observed' requires a copyable type
import ObservableCore

struct Handle: ~Copyable {
    var descriptor = 0
}

final class File: KeyValueObservable {
    @Observed var handle = Handle()
}
