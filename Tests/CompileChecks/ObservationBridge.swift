// expect: builds
// Classes reporting to Observation as well: with and without the class attribute, options, a
// generic class, an override in a subclass that declares nothing, a main-actor class.
import ObservableCore
import Observation

final class Prefs: KeyValueObservable, Observable {
    @Observed var volume = 3
    @Observed(skipsEqualValues: true) var theme = "dark"
    @Observed(notifiesAutomatically: false) var manual = 0
    @Observed weak var parent: Prefs?
}

@KeyValueObservable
class Panel: Observable {
    var brightness = 5
    @Unobserved var cache = 0
}

final class Dimmer: Panel {
    @Observed override var cache: Int
}

@KeyValueObservable
final class Stack<Element: Sendable>: Observable {
    var items: [Element] = []
}

@MainActor @KeyValueObservable
final class Screen: Observable {
    var title = ""
}

func use() {
    let prefs = Prefs()
    withObservationTracking {
        _ = prefs.volume
    } onChange: {
    }
    prefs.volume += 1
    Stack<Int>().items.append(1)
    _ = Dimmer()
}
