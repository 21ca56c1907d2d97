// A small, careful timing harness: calibrates the iteration count, warms up, takes several samples
// with ContinuousClock, and reports the median time per operation. Every benchmark body consumes
// its results through `blackHole`, which the optimiser cannot see through, so no work is optimised
// away; timings are only meaningful in release builds.

/// Consumes a value so the optimiser must compute it.
@inline(never) @_optimize(none)
func blackHole<T>(_ value: T) {}

/// Returns its argument without the optimiser knowing what it is.
@inline(never) @_optimize(none)
func opaque<T>(_ value: T) -> T { value }

/// One measured operation: `run(n)` performs it `n` times.
struct Benchmark {
    let group: String
    let name: String
    /// Runs the operation `n` times (setup excluded: it happens when the closure is built).
    let run: (Int) -> Void
    /// An upper bound on `n`, for operations that grow state (registrations) or are very slow.
    var maxIterations = Int.max
}

struct Measurement {
    let group: String
    let name: String
    let nanosecondsPerOperation: Double
    let iterations: Int
    let samples: Int
}

struct HarnessSettings {
    /// How long one sample should take.
    var sampleTarget: Duration = .milliseconds(20)
    var samples = 9
    var warmups = 2
    /// CI mode: one short sample, only to prove each benchmark still runs.
    var quick = false
}

extension Duration {
    var nanoseconds: Double {
        Double(components.seconds) * 1e9 + Double(components.attoseconds) / 1e9
    }
}

func measure(_ benchmark: Benchmark, _ settings: HarnessSettings) -> Measurement {
    let clock = ContinuousClock()
    if settings.quick {
        let n = min(10, benchmark.maxIterations)
        let elapsed = clock.measure { benchmark.run(n) }
        return Measurement(
            group: benchmark.group, name: benchmark.name,
            nanosecondsPerOperation: elapsed.nanoseconds / Double(n), iterations: n, samples: 1)
    }
    let n = calibratedIterations(benchmark, settings)
    for _ in 0..<settings.warmups { benchmark.run(n) }
    var perOperation: [Double] = []
    for _ in 0..<settings.samples {
        let elapsed = clock.measure { benchmark.run(n) }
        perOperation.append(elapsed.nanoseconds / Double(n))
    }
    perOperation.sort()
    return Measurement(
        group: benchmark.group, name: benchmark.name,
        nanosecondsPerOperation: perOperation[perOperation.count / 2], iterations: n,
        samples: settings.samples)
}

/// The iterations that make one sample of `benchmark` take at least the target: doubled until it does.
func calibratedIterations(_ benchmark: Benchmark, _ settings: HarnessSettings) -> Int {
    let clock = ContinuousClock()
    var n = 1
    while true {
        let elapsed = clock.measure { benchmark.run(n) }
        if elapsed >= settings.sampleTarget || n >= benchmark.maxIterations { return n }
        let scale = elapsed.nanoseconds > 0 ? settings.sampleTarget.nanoseconds / elapsed.nanoseconds : 16
        n = min(benchmark.maxIterations, max(n * 2, Int(Double(n) * min(scale * 1.1, 16))))
    }
}

/// The median, over `pairs` pairs of samples, of `a`'s time per operation ÷ `b`'s, the two samples
/// of a pair taken back to back (in turn first): a slow spell of the machine then slows both sides of
/// a ratio, where two rows measured a while apart can each catch a different spell.
func pairedRatio(_ a: Benchmark, _ b: Benchmark, _ settings: HarnessSettings, pairs: Int = 15) -> Double {
    let clock = ContinuousClock()
    let (na, nb) = (calibratedIterations(a, settings), calibratedIterations(b, settings))
    for _ in 0..<settings.warmups {
        a.run(na)
        b.run(nb)
    }
    func sample(_ benchmark: Benchmark, _ n: Int) -> Double {
        clock.measure { benchmark.run(n) }.nanoseconds / Double(n)
    }
    var ratios: [Double] = []
    for pair in 0..<pairs {
        if pair.isMultiple(of: 2) {
            let first = sample(a, na)
            ratios.append(first / sample(b, nb))
        } else {
            let second = sample(b, nb)
            ratios.append(sample(a, na) / second)
        }
    }
    return ratios.sorted()[pairs / 2]
}

func format(_ nanoseconds: Double) -> String {
    switch nanoseconds {
    case ..<10: return String(format2: nanoseconds, decimals: 2) + " ns"
    case ..<1_000: return String(format2: nanoseconds, decimals: 1) + " ns"
    case ..<1_000_000: return String(format2: nanoseconds / 1_000, decimals: 2) + " µs"
    default: return String(format2: nanoseconds / 1_000_000, decimals: 2) + " ms"
    }
}

func formatRatio(_ ratio: Double) -> String {
    ratio >= 100 ? String(format2: ratio, decimals: 0) + "×" : String(format2: ratio, decimals: 2) + "×"
}

extension String {
    /// Fixed-point formatting without Foundation's String(format:).
    init(format2 value: Double, decimals: Int) {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        var text = "\(rounded)"
        if let dot = text.firstIndex(of: ".") {
            let fraction = text[text.index(after: dot)...]
            if fraction.count < decimals { text += String(repeating: "0", count: decimals - fraction.count) }
            if decimals == 0 { text = String(text[..<dot]) }
        } else if decimals > 0 {
            text += "." + String(repeating: "0", count: decimals)
        }
        self = text
    }

    func padded(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
