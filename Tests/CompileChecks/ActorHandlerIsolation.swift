// expect-error: sending value of non-Sendable type '(ObservedChange<Int>) -> ()' risks causing data races
// A handler written in main-actor code is main-actor code: the compiler refuses to hand it to another
// actor (README, "Delivery on the main actor, or any actor"). The same call with
// `isolation: MainActor.shared` builds (`ActorDeliveryTests`).
import ObservableCore

final class Meter: KeyValueObservable, @unchecked Sendable {
    @Observed var level = 0
}

actor Elsewhere {}

@MainActor final class Screen {
    var text = ""
    var token: ObservationToken?

    func show(_ meter: Meter, on elsewhere: Elsewhere) async {
        token = await meter.observe(\.level, isolation: elsewhere) { change in
            self.text = "\(change.newValue ?? 0)"
        }
    }
}
