// expect-error: '@Observed' cannot be applied to a property of opaque type 'some Equatable'; declare its concrete type
import ObservableCore

final class Shape: KeyValueObservable {
    @Observed var size: some Equatable = 1
}
