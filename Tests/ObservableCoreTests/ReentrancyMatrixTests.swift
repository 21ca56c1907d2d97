import ObservableCore
import Testing

/// What a callback does, once, in the phase under test.
enum CallbackAction: String, CaseIterable, Sendable {
    case observe, cancelSelf, cancelOther, setSame, setOther, releaseObserved
}

/// When it does it: in the `.initial` callback, the prior one, or the one after the store.
enum CallbackPhase: String, CaseIterable, Sendable {
    case initial, prior, post
}

/// The key path under test: a property of the root (`\.name`) or a leaf one level down
/// (`\.address?.city`). Both must give the same log.
enum ObservedKind: String, CaseIterable, Sendable {
    case direct, path
}

/// One scenario. Registered in this order on the observed person: B (a token on the key path under
/// test), D (a token on `age`), then A (through a non-retaining controller, so that it can remove
/// itself even from inside `.initial`) with `.initial`, `.prior`, `.old` and `.new`. A performs the action
/// once, in the phase under test. Then the observed value is set to "x" and to "y". Every callback
/// appends to one log: `A.initial:<new>`, `A.prior:<old>`, `A.post:<new>`, `B:<new>`, `C:<new>`
/// (an observation A starts), `D:<new>`.
final class ReentrancyScenario {
    final class Holder { var person: Person? }

    let kind: ObservedKind
    let phase: CallbackPhase
    let action: CallbackAction
    let holder = Holder()
    var log: [String] = []
    var tokens: [String: ObservationToken] = [:]
    lazy var controller = ObservationController(observer: self, retainsObserved: false)
    private var callsToA = 0
    private var acted = false

    init(kind: ObservedKind, phase: CallbackPhase, action: CallbackAction) {
        self.kind = kind
        self.phase = phase
        self.action = action
    }

    func run() {
        do {
            let person = Person(name: "s")
            person.address = Address(city: "s")
            holder.person = person
            tokens["B"] = observe(person, label: "B")
            tokens["D"] = person.observe(\.age, options: [.new]) { [unowned self] _, change in
                log.append("D:\(change.newValue!)")
            }
            switch kind {
            case .direct:
                controller.observe(person, \.name, options: [.initial, .prior, .old, .new]) { scenario, _, change in
                    scenario.handleA(change.isPrior ? change.oldValue! : change.newValue!, isPrior: change.isPrior)
                }
            case .path:
                controller.observe(person, \.address?.city, options: [.initial, .prior, .old, .new]) {
                    scenario, _, change in
                    scenario.handleA((change.isPrior ? change.oldValue! : change.newValue!)!, isPrior: change.isPrior)
                }
            }
        }  // from here on only `holder` keeps the person alive
        set("x")
        set("y")
        log.append("end")
    }

    private func observe(_ person: Person, label: String) -> ObservationToken {
        switch kind {
        case .direct:
            person.observe(\.name, options: [.new]) { [unowned self] _, change in
                log.append("\(label):\(change.newValue!)")
            }
        case .path:
            person.observe(\.address?.city, options: [.new]) { [unowned self] _, change in
                log.append("\(label):\(change.newValue!!)")
            }
        }
    }

    private func set(_ value: String) {
        guard let person = holder.person else { return }
        withExtendedLifetime(person) {
            switch kind {
            case .direct: person.name = value
            case .path: person.address!.city = value
            }
        }
    }

    private func handleA(_ value: String, isPrior: Bool) {
        // `.initial` is always A's first callback; the others say whether they are prior.
        let current: CallbackPhase = callsToA == 0 ? .initial : isPrior ? .prior : .post
        callsToA += 1
        log.append("A.\(current.rawValue):\(value)")
        guard current == phase, !acted else { return }
        acted = true
        switch action {
        case .observe:
            tokens["C"] = observe(holder.person!, label: "C")
        case .cancelSelf:
            switch kind {
            case .direct: controller.unobserve(holder.person!, \.name)
            case .path: controller.unobserve(holder.person!, \.address?.city)
            }
        case .cancelOther:
            tokens["B"]!.cancel()
        case .setSame:
            set("z")
        case .setOther:
            holder.person!.age = 7
        case .releaseObserved:
            holder.person = nil
        }
    }

    /// The documented outcome of each cell, identical for direct properties and nested paths.
    static func expectedLog(_ phase: CallbackPhase, _ action: CallbackAction) -> [String] {
        switch (action, phase) {
        // An observation started inside a callback hears later changes, not the one in flight.
        case (.observe, .initial):
            return ["A.initial:s", "A.prior:s", "B:x", "A.post:x", "C:x", "A.prior:x", "B:y", "A.post:y", "C:y", "end"]
        case (.observe, .prior), (.observe, .post):
            return ["A.initial:s", "A.prior:s", "B:x", "A.post:x", "A.prior:x", "B:y", "A.post:y", "C:y", "end"]
        // A removed observation is not called again, not even for the change in flight.
        case (.cancelSelf, .initial):
            return ["A.initial:s", "B:x", "B:y", "end"]
        case (.cancelSelf, .prior):
            return ["A.initial:s", "A.prior:s", "B:x", "B:y", "end"]
        case (.cancelSelf, .post):
            return ["A.initial:s", "A.prior:s", "B:x", "A.post:x", "B:y", "end"]
        case (.cancelOther, .initial), (.cancelOther, .prior):
            return ["A.initial:s", "A.prior:s", "A.post:x", "A.prior:x", "A.post:y", "end"]
        case (.cancelOther, .post):
            return ["A.initial:s", "A.prior:s", "B:x", "A.post:x", "A.prior:x", "A.post:y", "end"]
        // A nested set is delivered completely, to everyone, before the outer notification goes on.
        // Set from a prior callback, it is overwritten by the outer store that follows.
        case (.setSame, .initial):
            return [
                "A.initial:s", "A.prior:s", "B:z", "A.post:z",
                "A.prior:z", "B:x", "A.post:x", "A.prior:x", "B:y", "A.post:y", "end",
            ]
        case (.setSame, .prior):
            return [
                "A.initial:s", "A.prior:s", "A.prior:s", "B:z", "A.post:z",
                "B:x", "A.post:x", "A.prior:x", "B:y", "A.post:y", "end",
            ]
        case (.setSame, .post):
            return [
                "A.initial:s", "A.prior:s", "B:x", "A.post:x",
                "A.prior:x", "B:z", "A.post:z", "A.prior:z", "B:y", "A.post:y", "end",
            ]
        case (.setOther, .initial):
            return ["A.initial:s", "D:7", "A.prior:s", "B:x", "A.post:x", "A.prior:x", "B:y", "A.post:y", "end"]
        case (.setOther, .prior):
            return ["A.initial:s", "A.prior:s", "D:7", "B:x", "A.post:x", "A.prior:x", "B:y", "A.post:y", "end"]
        case (.setOther, .post):
            return ["A.initial:s", "A.prior:s", "B:x", "A.post:x", "D:7", "A.prior:x", "B:y", "A.post:y", "end"]
        // The object lives until the set in progress returns, then every observation of it ends.
        case (.releaseObserved, .initial):
            return ["A.initial:s", "end"]
        case (.releaseObserved, .prior), (.releaseObserved, .post):
            return ["A.initial:s", "A.prior:s", "B:x", "A.post:x", "end"]
        }
    }
}

@Suite("Re-entrancy: every action from every callback phase")
struct ReentrancyMatrixTests {
    static let cells: [(CallbackPhase, CallbackAction)] = CallbackPhase.allCases.flatMap { phase in
        CallbackAction.allCases.map { (phase, $0) }
    }

    @Test(
        "log order is the documented one, and everything is freed afterwards",
        arguments: ObservedKind.allCases, cells)
    func cell(kind: ObservedKind, cell: (CallbackPhase, CallbackAction)) {
        let (phase, action) = cell
        let scenario = ReentrancyScenario(kind: kind, phase: phase, action: action)
        scenario.run()
        #expect(scenario.log == ReentrancyScenario.expectedLog(phase, action))

        // Whatever the callbacks did, releasing the model frees it and ends every observation.
        weak var person: Person?
        person = scenario.holder.person
        scenario.holder.person = nil
        #expect(person == nil)
        #expect(scenario.tokens.values.allSatisfy { !$0.isActive })
        #expect(scenario.controller.observedObjects.isEmpty)
    }
}
