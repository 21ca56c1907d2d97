// expect-error: '@Observed' cannot be applied to a property of opaque type 'some Equatable'; declare its concrete type
// expect-error-count: 1
import ObservableCore

final class Shape: KeyValueObservable {
    @Observed var size: some Equatable = 1
}
