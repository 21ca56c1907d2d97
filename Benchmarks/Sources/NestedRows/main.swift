// A second harness for the nested-path rows, simpler than `Benchmarks`: each case a plain loop timed
// by `ContinuousClock`, the median of 15 rounds, ratios within this run (one also from rounds in
// pairs). Its models are its own; the least re-wires are the same references (`RewireReference`,
// `GuardedRewireReference`, `APIRewireReference`). Run:
// `swift run -c release --package-path Benchmarks NestedRows`.
import ObservableCore
import Observation
import RewireReference

final class Leaf: KeyValueObservable {
    @Observed var leaf = 0
}

final class Parent: KeyValueObservable {
    @Observed var child: Leaf?
}

@Observable final class TrackedLeaf {
    var leaf = 0
}

@Observable final class TrackedParent {
    var child: TrackedLeaf?
}

/// What the handlers add up, printed at the end so that no loop is optimised away.
final class Tally: @unchecked Sendable {
    var count = 0
}

/// Nanoseconds that `body(n)` takes, timed once.
func nanoseconds(_ n: Int, _ body: (Int) -> Void) -> Double {
    let elapsed = ContinuousClock().measure { body(n) }
    return Double(elapsed.components.attoseconds) / 1e9 + Double(elapsed.components.seconds) * 1e9
}

/// Nanoseconds per operation of `body(n)`: the median of `rounds` timed rounds, after one untimed.
func nanosecondsPerOperation(_ n: Int, rounds: Int = 15, _ body: (Int) -> Void) -> Double {
    body(n / 10)
    let times = (0..<rounds).map { _ in nanoseconds(n, body) }
    return times.sorted()[rounds / 2] / Double(n)
}

/// The median, over `rounds` pairs of rounds, of `a`'s time ÷ `b`'s, the two rounds of a pair run back
/// to back (in turn first), so that a slow spell of the machine slows both sides of a ratio.
func pairedRatio(_ n: Int, rounds: Int = 15, _ a: (Int) -> Void, _ b: (Int) -> Void) -> Double {
    a(n / 10)
    b(n / 10)
    var ratios: [Double] = []
    for round in 0..<rounds {
        if round.isMultiple(of: 2) {
            let first = nanoseconds(n, a)
            ratios.append(first / nanoseconds(n, b))
        } else {
            let second = nanoseconds(n, b)
            ratios.append(nanoseconds(n, a) / second)
        }
    }
    return ratios.sorted()[rounds / 2]
}

let tally = Tally()
var rows: [(String, Double)] = []
var pairedRatios: [(String, Double)] = []

/// Tracks `tracked.child?.leaf` with Observation, then runs `change`, which ends the tracking: the
/// re-armed form Observation needs for every change.
func trackPath(of tracked: TrackedParent, then change: () -> Void) {
    withObservationTracking {
        tally.count &+= tracked.child?.leaf ?? 0
    } onChange: {
        tally.count &+= 1
    }
    change()
}

/// Times `body` and records it as `name`.
@MainActor func measure(_ name: String, _ n: Int, _ body: (Int) -> Void) {
    rows.append((name, nanosecondsPerOperation(n, body)))
}

// An intermediate replaced: two children in turn.
do {
    let parent = Parent()
    let children = [Leaf(), Leaf()]
    parent.child = children[0]
    let token = parent.observe(\.child?.leaf, options: [.old, .new]) { _, change in
        tally.count &+= ((change.oldValue ?? nil) ?? 0) &+ ((change.newValue ?? nil) ?? 0) &+ 1
    }
    let replaceChild = { (n: Int) in
        for i in 0..<n { parent.child = children[i & 1] }
    }
    measure("intermediate replaced: ObservableCore", 100_000, replaceChild)

    let tracked = TrackedParent()
    let trackedChildren = [TrackedLeaf(), TrackedLeaf()]
    tracked.child = trackedChildren[0]
    measure("intermediate replaced: Observation, tracking re-armed", 100_000) { n in
        for i in 0..<n { trackPath(of: tracked) { tracked.child = trackedChildren[i & 1] } }
    }

    let root = RewireReference.Root()
    let referenceChildren = [RewireReference.Child(), RewireReference.Child()]
    root.child = referenceChildren[0]
    root.observePath { old, new in tally.count &+= (old ?? 0) &+ (new ?? 0) &+ 1 }
    measure("intermediate replaced: the least re-wire", 100_000) { n in
        for i in 0..<n { root.child = referenceChildren[i & 1] }
    }

    let guardedRoot = GuardedRewireReference.Root()
    let guardedChildren = [GuardedRewireReference.Child(), GuardedRewireReference.Child()]
    guardedRoot.child = guardedChildren[0]
    guardedRoot.observePath { old, new in tally.count &+= (old ?? 0) &+ (new ?? 0) &+ 1 }
    measure("intermediate replaced: the least guarded re-wire", 100_000) { n in
        for i in 0..<n { guardedRoot.child = guardedChildren[i & 1] }
    }
    measure("leaf change: the least guarded re-wire's own", 1_000_000) { n in
        let child = guardedChildren[0]
        guardedRoot.child = child
        for i in 0..<n { child.leaf = i }
    }

    let apiRoot = APIRewireReference.Root()
    let apiChildren = [APIRewireReference.Child(), APIRewireReference.Child()]
    apiRoot.child = apiChildren[0]
    apiRoot.observePath(\APIRewireReference.Root.child?.leaf) { change in
        tally.count &+= (change.oldValue ?? 0) &+ (change.newValue ?? 0) &+ 1
    }
    let replaceAPIChild = { (n: Int) in
        for i in 0..<n { apiRoot.child = apiChildren[i & 1] }
    }
    measure("intermediate replaced: the least re-wire of this API", 100_000, replaceAPIChild)
    measure("leaf change: the least re-wire of this API's own", 1_000_000) { n in
        let child = apiChildren[0]
        apiRoot.child = child
        for i in 0..<n { child.leaf = i }
    }

    // The same two loops, timed in pairs of rounds.
    pairedRatios.append(
        (
            "intermediate replaced ÷ the least re-wire of this API, rounds in pairs",
            pairedRatio(100_000, replaceChild, replaceAPIChild)
        ))
    token.cancel()
}

// A path observed, then cancelled (Observation: tracked, then ended by a change of the leaf).
do {
    let parent = Parent()
    parent.child = Leaf()
    measure("observe + cancel of the path: ObservableCore", 50_000) { n in
        for _ in 0..<n {
            parent.observe(\.child?.leaf, options: [.old, .new]) { _, _ in tally.count &+= 1 }.cancel()
        }
    }
    let tracked = TrackedParent()
    let child = TrackedLeaf()
    tracked.child = child
    measure("observe + cancel of the path: Observation, tracked then ended by a change", 50_000) { n in
        for i in 0..<n { trackPath(of: tracked) { child.leaf = i } }
    }
}

// The leaf of an observed path set.
do {
    let parent = Parent()
    let child = Leaf()
    parent.child = child
    let token = parent.observe(\.child?.leaf, options: [.old, .new]) { _, change in
        tally.count &+= (change.newValue ?? nil) ?? 0
    }
    measure("leaf change: ObservableCore path", 1_000_000) { n in
        for i in 0..<n { child.leaf = i }
    }
    token.cancel()
    let direct = Leaf()
    weak let weakRoot = parent
    let directToken = direct.observe(\.leaf, options: [.old, .new]) { _, change in
        guard weakRoot != nil else { return }
        tally.count &+= change.newValue!
    }
    measure("leaf change: the direct change, its handler loading a weak root", 1_000_000) { n in
        for i in 0..<n { direct.leaf = i }
    }
    directToken.cancel()
}

/// `value` with `digits` decimals, without Foundation.
func fixed(_ value: Double, _ digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = Int((value * scale).rounded())
    let whole = String(scaled / Int(scale))
    guard digits > 0 else { return whole }
    let fraction = String(scaled % Int(scale))
    return whole + "." + String(repeating: "0", count: digits - fraction.count) + fraction
}

@MainActor func time(_ name: String) -> Double { rows.first { $0.0.hasPrefix(name) }!.1 }

let ratios = [
    (
        "intermediate replaced ÷ Observation", time("intermediate replaced: ObservableCore"),
        time("intermediate replaced: Observation")
    ),
    (
        "intermediate replaced ÷ the least re-wire", time("intermediate replaced: ObservableCore"),
        time("intermediate replaced: the least re-wire")
    ),
    (
        "intermediate replaced ÷ the least guarded re-wire", time("intermediate replaced: ObservableCore"),
        time("intermediate replaced: the least guarded")
    ),
    (
        "intermediate replaced ÷ the least re-wire of this API", time("intermediate replaced: ObservableCore"),
        time("intermediate replaced: the least re-wire of this API")
    ),
    (
        "observe + cancel ÷ Observation", time("observe + cancel of the path: ObservableCore"),
        time("observe + cancel of the path: Observation")
    ),
    (
        "leaf change ÷ the direct change with a weak root", time("leaf change: ObservableCore"),
        time("leaf change: the direct")
    ),
    (
        "the least guarded re-wire's leaf change ÷ the direct change with a weak root",
        time("leaf change: the least guarded"), time("leaf change: the direct")
    ),
    (
        "the least re-wire of this API's leaf change ÷ the direct change with a weak root",
        time("leaf change: the least re-wire of this API"), time("leaf change: the direct")
    ),
]
print("| case | ns/op |")
print("| --- | ---: |")
for (name, nanoseconds) in rows { print("| \(name) | \(fixed(nanoseconds, 1)) |") }
print("")
print("| ratio | value |")
print("| --- | ---: |")
for (name, ours, reference) in ratios { print("| \(name) | \(fixed(ours / reference, 2))× |") }
for (name, ratio) in pairedRatios { print("| \(name) | \(fixed(ratio, 2))× |") }
print("(tally \(tally.count))")
