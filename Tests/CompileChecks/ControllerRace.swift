// expect-error: risks causing data races
// A controller of a non-Sendable observer hands the observer out: it must not cross into a task.
import ObservableCore

final class Viewer {
    var count = 0
    lazy var observations = ObservationController(observer: self)
}

func race(_ viewer: Viewer) {
    let controller = viewer.observations
    Task.detached { controller.observer?.count += 1 }
}
