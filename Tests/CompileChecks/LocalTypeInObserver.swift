// expect-error: '@Observed' cannot keep type 'Helper' declared inside 'didSet'
import ObservableCore

final class Gauge: KeyValueObservable {
    @Observed var level = 0 {
        didSet {
            struct Helper {}
            _ = Helper()
        }
    }
}
