// expect: warns
// expect-warning: InitializerRunsObservers.swift:17:14: warning: this assignment to 'n' runs its 'didSet': the instance is fully initialized here, so Swift calls the observed property's setter (as for '@Observable'), where a plain stored property is stored directly by its initializer
// expect-warning: InitializerRunsObservers.swift:31:14: warning: this assignment to 'count' runs its 'didSet'
// expect-warning: InitializerRunsObservers.swift:35:14: warning: this assignment to 'count' runs its 'didSet'
// expect-warning-count: 3
// An initializer of a @KeyValueObservable class assigning an observed property that has a didSet,
// once the instance is fully initialized: Swift calls the setter there (as for @Observable), where a
// plain stored property is stored directly. One warning per such assignment, none before, none
// through the storage (the fix-it's mend), none in a closure (which runs the observers in plain
// Swift too).
import ObservableCore

@KeyValueObservable final class Box {
    var n = 0 { didSet { if n > 5 { n = 5 } } }
    var later: (() -> Void)?
    init(n: Int) {
        self.n = n
        later = { self.n = 0 }
    }
    init(stored n: Int) {
        self._n = n
    }
}

@KeyValueObservable final class Counter {
    var count: Int { didSet { print(count) } }
    let step: Int
    init(count: Int, step: Int) {
        self.count = count
        self.step = step
        self.count += step
    }
    convenience init() {
        self.init(count: 0, step: 1)
        self.count = 10
    }
}
