// expect-error: '@Observed' in a 'Codable' class needs '@KeyValueObservable' on 'Settings'
// expect-error-count: 2
// Without the class attribute no macro sees the whole class, so none can write the conformance the
// compiler cannot synthesize for observed properties: the error says so on each '@Observed'.
import ObservableCore

final class Settings: KeyValueObservable, Codable {
    @Observed var volume = 3
    @Observed var theme: String = "dark"
    init() {}
}
