import Dispatch
import ObservableCore
import OpenCombine
import OpenCombineDispatch

/// A model set on one actor or thread at a time, as an app shares one: hence `@unchecked Sendable`.
final class SharedModel: KeyValueObservable, @unchecked Sendable {
    @Observed var value = 0
}

/// The observer's actor (in an app, usually the main actor, which this synchronous harness cannot
/// run jobs on). Its handlers add up what they are given, so no delivery is optimised away.
actor DeliveryActor {
    private var sum = 0
    private var delivered = 0
    private var tokens: [ObservationToken] = []

    func observeOnThisActor(_ model: SharedModel) {
        tokens.append(
            model.observe(\.value, options: [.old, .new], isolation: self) { change in
                self.sum &+= change.oldValue! &+ change.newValue!
                self.delivered &+= 1
            })
    }

    func observeOnTheSettingThread(_ model: SharedModel, _ sink: Tally) {
        tokens.append(
            model.observe(\.value, options: [.old, .new]) { _, change in
                sink.count &+= change.oldValue! &+ change.newValue!
            })
    }

    func set(_ model: SharedModel, times n: Int) {
        for i in 0..<n { model.value = i }
    }

    /// How many changes have been delivered so far, and their sum.
    var progress: (delivered: Int, sum: Int) { (delivered, sum) }
}

/// Written by the task before it signals, read by the waiting thread after the wait.
final class TaskOutcome<Value>: @unchecked Sendable {
    var value: Value?
}

/// Runs `body` as a task and waits for it on this thread (the harness is synchronous).
func waitForTask<Result: Sendable>(_ body: @escaping @Sendable () async -> Result) -> Result {
    let done = DispatchSemaphore(value: 0)
    let outcome = TaskOutcome<Result>()
    Task {
        outcome.value = await body()
        done.signal()
    }
    done.wait()
    return outcome.value!
}

/// A set observed by a handler that runs on an actor: made on that actor (delivered at once) and
/// made on another thread (delivered by a job on the actor), against a handler run on the setting
/// thread, and against Combine's way, `receive(on:)` a serial queue. The task hop into the actor is
/// paid once per sample, not per set.
func actorDeliveryBenchmarks() -> [Benchmark] {
    let group = "set, 1 observer delivered on an actor"
    let synchronous = SharedModel()
    let onActor = SharedModel()
    let fromElsewhere = SharedModel()
    let actor = DeliveryActor()
    let sink = Tally()
    waitForTask {
        await actor.observeOnTheSettingThread(synchronous, sink)
        await actor.observeOnThisActor(onActor)
    }
    let elsewhereActor = DeliveryActor()
    waitForTask { await elsewhereActor.observeOnThisActor(fromElsewhere) }
    let published = PublishedModel()
    let queue = DispatchQueue(label: "receiver")
    let received = TaskOutcome<Int>()  // Written on `queue` only; read there too (`queue.sync`).
    received.value = 0
    let cancellable = published.$value.dropFirst().receive(on: queue.ocombine).sink { value in
        received.value! &+= 1
        blackHole(value)
    }
    return [
        Benchmark(group: group, name: Name.observed + " observe, set on the actor (handler on the setting thread)") {
            n in
            waitForTask { await actor.set(synchronous, times: n) }
            blackHole(sink.count)
        },
        Benchmark(group: group, name: Name.observed + " observe(isolation:), set on the actor (delivered at once)") {
            n in
            waitForTask { await actor.set(onActor, times: n) }
            blackHole(waitForTask { await actor.progress })
        },
        Benchmark(
            group: group, name: Name.observed + " observe(isolation:), set on another thread (delivered by a job)"
        ) { n in
            let before = waitForTask { await elsewhereActor.progress.delivered }
            for i in 0..<n { fromElsewhere.value = i }
            // Until every change has been delivered on the actor.
            while waitForTask({ await elsewhereActor.progress.delivered }) < before + n {}
            blackHole(waitForTask { await elsewhereActor.progress })
        },
        Benchmark(group: group, name: Name.published + " receive(on: serial queue), set on another thread") { n in
            let before = queue.sync { received.value! }
            for i in 0..<n { published.value = i }
            while queue.sync(execute: { received.value! }) < before + n {}
            withExtendedLifetime(cancellable) {}
        },
    ]
}
