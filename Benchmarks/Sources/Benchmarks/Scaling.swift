import ObservableCore
import Observation
import OpenCombine

/// Observe N times on one object, then cancel all: time per (observe + cancel) as N grows. Constant
/// means linear overall; Cocoa KVO is quadratic here.
struct ScalingResult {
    let contender: String
    let count: Int
    let nanosecondsPerPair: Double?  // nil: skipped, because the previous size was too slow
}

func scalingBenchmarks(quick: Bool) -> [ScalingResult] {
    let sizes = quick ? [100, 1_000] : [1_000, 10_000, 100_000, 1_000_000]
    let clock = ContinuousClock()
    var results: [ScalingResult] = []
    /// Runs `body` for each size, three times, keeping the median; stops growing once a size takes
    /// more than `budget`.
    func scale(_ contender: String, budget: Duration = .seconds(3), _ body: (Int) -> Void) {
        var tooSlow = false
        for size in sizes {
            if tooSlow {
                results.append(ScalingResult(contender: contender, count: size, nanosecondsPerPair: nil))
                continue
            }
            var times: [Duration] = []
            for _ in 0..<(quick ? 1 : 3) { times.append(clock.measure { body(size) }) }
            times.sort()
            let median = times[times.count / 2]
            results.append(
                ScalingResult(contender: contender, count: size, nanosecondsPerPair: median.nanoseconds / Double(size)))
            if median > budget { tooSlow = true }
        }
    }
    let sink = Tally()
    scale(Name.observed + " (cancel in order)") { size in
        let model = ObservedModel()
        var tokens: [ObservationToken] = []
        tokens.reserveCapacity(size)
        for _ in 0..<size { tokens.append(model.observe(\.value) { _, _ in sink.count &+= 1 }) }
        for token in tokens { token.cancel() }
    }
    scale(Name.observed + " (cancel in reverse)") { size in
        let model = ObservedModel()
        var tokens: [ObservationToken] = []
        tokens.reserveCapacity(size)
        for _ in 0..<size { tokens.append(model.observe(\.value) { _, _ in sink.count &+= 1 }) }
        for token in tokens.reversed() { token.cancel() }
    }
    scale(Name.published + " (cancel in order)") { size in
        let model = PublishedModel()
        var cancellables: [AnyCancellable] = []
        cancellables.reserveCapacity(size)
        for _ in 0..<size { cancellables.append(model.$value.sink { _ in sink.count &+= 1 }) }
        for cancellable in cancellables { cancellable.cancel() }
    }
    scale(Name.observation + " (N trackings, ended by one change)") { size in
        let model = ObservableModel()
        for _ in 0..<size {
            withObservationTracking {
                _ = model.value
            } onChange: {
                sink.count &+= 1
            }
        }
        model.value += 1
    }
    blackHole(sink.count)
    return results
}
