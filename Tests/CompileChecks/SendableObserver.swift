// expect: builds
// With a Sendable observer the controller is Sendable.
import ObservableCore
import Synchronization

final class Counter: Sendable {
    let count = Atomic<Int>(0)
}

func share(_ counter: Counter) {
    let controller = ObservationController(observer: counter)
    Task.detached { controller.observer?.count.add(1, ordering: .relaxed) }
}
