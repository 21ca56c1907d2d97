// expect-error: '@Observed' cannot be used in an '@Observable' class
// expect-error-count: 1
// Both macros make the property computed; the message says to declare the conformance instead.
import ObservableCore
import Observation

@Observable
final class Prefs: KeyValueObservable {
    @Observed var volume = 3
}
