import CHeapInfo

// ObservableCore benchmarks: `swift run -c release --package-path Benchmarks [--quick] [--filter TEXT]`;
// `--gate` runs the speed gate's cases for `.ci/speed-gate.py`, `--walk` Design.md's walks for
// `.ci/walk-check.py`.
// Everything runs in one process; ratios compare contenders measured in this same run.
#if canImport(Glibc)
import Glibc
#endif

var settings = HarnessSettings()
var filter: String?
var gate = false
var locks = false
var walks = false
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--quick": settings.quick = true
    case "--filter": filter = arguments.popFirst()
    case "--samples": settings.samples = Int(arguments.popFirst() ?? "") ?? settings.samples
    case "--gate": gate = true
    case "--locks": locks = true
    case "--walk": walks = true
    default:
        print("usage: Benchmarks [--quick] [--filter TEXT] [--samples N] | --gate | --walk | --locks [--quick]")
        exit(2)
    }
}
if walks {
    runWalks()
    exit(0)
}
if locks {
    runLockContention(quick: settings.quick)
    exit(0)
}

#if DEBUG
print("note: a debug build; timings are meaningless (use `swift run -c release`)\n")
#endif

let benchmarks =
    accessBenchmarks()
    + mutationBenchmarks()
    + [1, 10, 1000].flatMap(setWithObserversBenchmarks)
    + nestedPathBenchmarks()
    + observeCancelBenchmarks()
    + stringKeyPathBenchmarks()
    + objectObservationBenchmarks()
    + graphBenchmarks()
    + patchBenchmarks()
    + changeSequenceBenchmarks()
    + bridgeBenchmarks()
    + subclassBenchmarks()
    + actorDeliveryBenchmarks()
    + threadBenchmarks()
    + contendedRegistrationBenchmarks()

if gate {
    runGate(benchmarks)
    exit(0)
}

var results: [Measurement] = []
for benchmark in benchmarks where filter.map({ benchmark.group.contains($0) || benchmark.name.contains($0) }) ?? true {
    results.append(measure(benchmark, settings))
}

/// The median of a benchmark of this run, by group and the start of its name.
@MainActor func result(_ group: String, _ name: String) -> Double? {
    results.first { $0.group == group && $0.name.hasPrefix(name) }?.nanosecondsPerOperation
}

/// A benchmark of this run, by group and the start of its name.
@MainActor func benchmark(_ group: String, _ name: String) -> Benchmark? {
    benchmarks.first { $0.group == group && $0.name.hasPrefix(name) }
}

// MARK: Tables

let baselines: [String: [String]] = [
    "get": [Name.plain, Name.branch],
    "set, no observers": [Name.plain, Name.branch, Name.observed],
    "JSON Patch: recording a set": [Name.wholeObject],
    "JSON Patch: 10,000 operations, 10,000-object document": ["JSONEncoder of the whole document"],
]
var groups: [String] = []
for measurement in results where !groups.contains(measurement.group) { groups.append(measurement.group) }
print("Medians per operation; ratios against contenders measured in this run.\n")
for group in groups {
    let rows = results.filter { $0.group == group }
    let references = baselines[group] ?? [Name.didSet, Name.observed]
    let available = references.filter { result(group, $0) != nil }
    print("### \(group)\n")
    print("| contender | median | " + available.map { "vs \($0)" }.joined(separator: " | ") + " |")
    print("| --- | ---: |" + String(repeating: " ---: |", count: available.count))
    for row in rows {
        let ratios = available.map { formatRatio(row.nanosecondsPerOperation / result(group, $0)!) }
        print("| \(row.name) | \(format(row.nanosecondsPerOperation)) | " + ratios.joined(separator: " | ") + " |")
    }
    print("")
}

// MARK: Scaling and memory

var scalingGrowth: Double?

if filter == nil || filter == "scaling" {
    print("### observe N times on one object, then cancel all (time per observe + cancel)\n")
    let scaling = scalingBenchmarks(quick: settings.quick)
    let sizes = Array(Set(scaling.map(\.count))).sorted()
    print("| contender | " + sizes.map { "N = \($0)" }.joined(separator: " | ") + " |")
    print("| --- |" + String(repeating: " ---: |", count: sizes.count))
    var contenders: [String] = []
    for row in scaling where !contenders.contains(row.contender) { contenders.append(row.contender) }
    for contender in contenders {
        let cells = sizes.map { size in
            scaling.first { $0.contender == contender && $0.count == size }?.nanosecondsPerPair.map(format)
                ?? "(too slow)"
        }
        print("| \(contender) | " + cells.joined(separator: " | ") + " |")
    }
    print("")
    let ours = scaling.filter { $0.contender == Name.observed + " (cancel in order)" }.compactMap(\.nanosecondsPerPair)
    if let first = ours.first, let last = ours.last {
        scalingGrowth = last / first
    }
}

var memory: MemoryReport?
if (filter == nil || filter == "memory") && cheapinfo_available() != 0 {
    let report = memoryReport()
    memory = report
    print("### memory (heap bytes, C allocator)\n")
    print("| what | bytes |")
    print("| --- | ---: |")
    for (what, bytes) in report.rows { print("| \(what) | \(String(format2: bytes, decimals: 1)) |") }
    print("")
}

// MARK: Targets (Design.md)

func verdict(_ met: Bool?) -> String { met.map { $0 ? "met" : "NOT met" } ?? "not measured" }

@MainActor func check(_ target: String, _ measured: String, _ met: Bool?) {
    print("| \(target) | \(measured) | \(verdict(met)) |")
}

print("### targets\n")
if settings.quick {
    print("(--quick: one tiny sample each, to prove the benchmarks run; these verdicts mean nothing)\n")
}
print("| target | measured | verdict |")
print("| --- | --- | --- |")
if let plain = result("get", Name.plain), let ours = result("get", Name.observed) {
    check("get ≤ 1.5× a plain stored property", formatRatio(ours / plain), ours / plain <= 1.5)
}
// The targets as restated on 2026-11-23 (issue 21, Design.md): against the in-process references of
// this run where the direct path is at its floor; the old absolute forms stay as figures.
if let plain = result("set, no observers", Name.plain), let ours = result("set, no observers", Name.observed),
    let observation = result("set, no observers", Name.observation)
{
    check(
        "set, no observers ≥ 20× faster than @Observable", formatRatio(observation / ours) + " faster",
        observation / ours >= 20)
    print("| (figure) set, no observers vs a plain stored property | \(formatRatio(ours / plain)) | — |")
}
if let ours = result("set, 1 observer", Name.observed), let didSet = result("set, 1 observer", Name.didSet) {
    check("set, 1 observer (old+new) ≤ 10 ns", format(ours), ours <= 10)
    check(
        "set, 1 observer faster than didSet + closure array", formatRatio(ours / didSet) + " of didSet", ours < didSet)
}
/// Time per extra observer of `name` (1,000 observers against 1), in this run.
@MainActor func perExtraObserver(_ name: String) -> Double? {
    guard let one = result("set, 1 observer", name), let thousand = result("set, 1000 observers", name) else {
        return nil
    }
    return (thousand - one) / 999
}
if let perExtra = perExtraObserver(Name.observed), let relaid = perExtraObserver(Name.cReferenceRelaid) {
    check(
        "per extra observer ≤ 1.3× the C loop laying the change out for each call",
        format(perExtra) + ", " + formatRatio(perExtra / relaid), perExtra / relaid <= 1.3)
}
if let loop = perExtraObserver(Name.cReference) {
    print("| (reference) the C loop of CReference.h, per extra observer | \(format(loop)) | — |")
}
if let nested = result("nested path: leaf change", Name.observed + " \\.child?.leaf"),
    let direct = result("nested path: leaf change", Name.observed + " \\.leaf on the child"),
    let reference = result("nested path: leaf change", Name.weakRootReference)
{
    check(
        "nested leaf change ≤ 1.3× the direct change whose handler loads a weak root",
        formatRatio(nested / reference), nested / reference <= 1.3)
    print("| (figure) nested leaf change vs the direct one | \(formatRatio(nested / direct)) | — |")
}
let intermediateGroup = "nested path: intermediate replaced"
if let ours = result(intermediateGroup, Name.observed), let observation = result(intermediateGroup, Name.observation) {
    check(
        "intermediate replaced ≤ 0.5× Observation's re-armed tracking", formatRatio(ours / observation),
        ours / observation <= 0.5)
    if let published = result(intermediateGroup, Name.published) {
        check("intermediate replaced faster than OpenCombine", formatRatio(ours / published), ours < published)
    }
    if let floor = result(intermediateGroup, Name.rewireReference) {
        check(
            "intermediate replaced ≤ 1.3× the least re-wire", format(ours) + ", " + formatRatio(ours / floor),
            ours / floor <= 1.3)
        let vsObservation = formatRatio(floor / observation)
        print("| (figure) the least re-wire vs Observation's re-armed tracking | \(vsObservation) | — |")
    }
    if let guarded = result(intermediateGroup, Name.guardedRewireReference) {
        let ratio = formatRatio(ours / guarded)
        print("| (figure) intermediate replaced vs the least guarded re-wire | \(format(ours)), \(ratio) | — |")
    }
    if let api = result(intermediateGroup, Name.apiRewireReference) {
        let ratio = formatRatio(ours / api)
        print("| (figure) intermediate replaced vs the least re-wire of this API | \(format(ours)), \(ratio) | — |")
        if !settings.quick, let oursCase = benchmark(intermediateGroup, Name.observed),
            let apiCase = benchmark(intermediateGroup, Name.apiRewireReference)
        {
            let paired = formatRatio(pairedRatio(oursCase, apiCase, settings))
            print("| (figure) the same, samples taken in pairs (the median of 15 pairs' ratios) | \(paired) | — |")
        }
    }
}
if let pair = result("observe + cancel", Name.observed + " \\.value") {
    check("observe + cancel ≤ 150 ns a pair", format(pair), pair <= 150)
    if let controller = result("observe + cancel", Name.observed + " controller") {
        check("controller observe + unobserve ≤ 2× a token's", formatRatio(controller / pair), controller / pair <= 2)
        if let floor = result("observe + cancel", Name.observed + " hand-written controller") {
            print(
                "| (figure) controller vs a hand-written one keeping tokens (no lock) | \(formatRatio(controller / floor)) | — |"
            )
        }
    }
}
if let nested = result("observe + cancel", Name.observed + " \\.child?.leaf"),
    let observation = result("observe + cancel", Name.observation + " \\.child?.leaf")
{
    check(
        "nested observe + cancel ≤ 0.5× Observation's track-and-end of the path", formatRatio(nested / observation),
        nested / observation <= 0.5)
}
// DESIGN.md: a set heard by an observation of the whole object ≈ a set with one ordinary observer.
if let whole = result("whole object: set, 1 observer", Name.wholeObject),
    let ordinary = result("whole object: set, 1 observer", Name.observed + " observe(")
{
    check(
        "whole-object set ≤ 1.3× a set with one ordinary observer", formatRatio(whole / ordinary),
        whole / ordinary <= 1.3)
}
if let inside = result("whole object: graph of 10,000 objects", Name.graph + ", a set"),
    let flat = result("whole object: graph of 10,000 objects", Name.wholeObject)
{
    print(
        "| (figure) a set inside an observed graph of 10,000 objects vs the observation of that object | \(formatRatio(inside / flat)) | — |"
    )
}
let recordGroup = "JSON Patch: recording a set"
if let observer = result(recordGroup, Name.wholeObject), let recorder = result(recordGroup, Name.recorder) {
    // The value set is an `Int`, which the recorder encodes inline: there is no encoding to set aside
    // (the row "encoding the value alone" is what `JSONValue(encoding:)` costs a value it has no inline path for).
    let ratio = recorder / observer
    check("recording a set ≤ 2× one whole-object observer, encoding aside", formatRatio(ratio), ratio <= 2)
    if let deep = result(recordGroup, Name.graph) {
        print("| (figure) a deep observer alone vs the observer | \(formatRatio(deep / observer)) | — |")
    }
    if let least = result(recordGroup, "least recorder:") {
        print(
            "| (floor) the least recorder, on typed observers, vs the observer | \(formatRatio(least / observer)) | — |"
        )
        print("| (figure) recording a set vs that least recorder | \(formatRatio(recorder / least)) | — |")
    }
    if let leastDeep = result(recordGroup, "least deep recorder:") {
        print(
            "| (floor) the least recorder on deep observation vs the observer | \(formatRatio(leastDeep / observer)) | — |"
        )
        print("| (figure) recording a set vs that least deep recorder | \(formatRatio(recorder / leastDeep)) | — |")
    }
}
let applyGroup = "JSON Patch: 10,000 operations, 10,000-object document"
if let apply = result(applyGroup, Name.observed + " apply"),
    let encode = result(applyGroup, "JSONEncoder of the whole"),
    let decode = result(applyGroup, "JSONDecoder of the whole")
{
    print(
        "| (figure) applying 10,000 operations vs encoding and decoding the whole document | \(formatRatio(apply / (encode + decode))) | — |"
    )
}
if let typed = result("string key path: set, 1 observer", Name.observed + " \\.value"),
    let string = result("string key path: set, 1 observer", Name.observed + " \"value\"")
{
    check(
        "string key path set, 1 observer ≤ 2× the typed one (handler casts with as?)", formatRatio(string / typed),
        string / typed <= 2)
    if let floor = result("string key path: set, 1 observer", Name.observed + " \\.value, values as Any") {
        print(
            "| (figure) string key path set vs the typed one with its values as Any | \(formatRatio(string / floor)) | — |"
        )
    }
    if let read = result("string key path: set, 1 observer", Name.observed + " \"value\", read with newValue(as:)") {
        check(
            "string key path set, 1 observer ≤ 2× the typed one (handler reads with newValue(as:))",
            formatRatio(read / typed), read / typed <= 2)
        if let notified = result("string key path: set, 1 observer", Name.observed + " \\.value (typed, [") {
            print(
                "| (figure) newValue(as:) row vs the typed one through notify, the path a string observation takes | \(formatRatio(read / notified)) | — |"
            )
        }
    }
}
if let ours = result("async sequence: per change", Name.observed),
    let observation = result("async sequence: per change", Name.observation)
{
    check("changes(of:) per change ≤ 0.5× Observations'", formatRatio(ours / observation), ours / observation <= 0.5)
}
if let growth = scalingGrowth {
    check("1M observations on one object linear (time per pair, 1M vs 1k)", formatRatio(growth), growth <= 3)
}
if let memory {
    let perProperty = memory.rows.first { $0.0 == "per unobserved property over plain: " + Name.observed }?.1
    let perObservation = memory.rows.first { $0.0 == "per observation: " + Name.observed + " \\.value token" }?.1
    // Heap averages carry allocator noise below a tenth of a byte; compare at the printed precision.
    if let perProperty {
        check(
            "≤ 8 bytes per @Observed property while unobserved", String(format2: perProperty, decimals: 1) + " B",
            (perProperty * 10).rounded() <= 80)
    }
    if let perObservation {
        check("≤ 128 bytes per observation", String(format2: perObservation, decimals: 1) + " B", perObservation <= 128)
    }
    if let perNested = memory.rows.first(where: {
        $0.0 == "per observation: " + Name.observed + " \\.child?.leaf token"
    })?.1 {
        check(
            "≤ 256 bytes per nested observation", String(format2: perNested, decimals: 1) + " B", perNested <= 256)
    }
}
for group in ["bridged: get", "bridged: set, no observers"] {
    if let bridged = result(group, Name.bridged), let observation = result(group, Name.observation) {
        check(
            "\(group.dropFirst("bridged: ".count)) in a class declaring Observable ≤ @Observable's",
            formatRatio(bridged / observation), bridged <= observation)
    }
}
for group in ["subclass: get", "subclass: set, no observers"] {
    let operation = group.dropFirst("subclass: ".count)
    if let subclass = result(group, Name.bridgedSubclass), let observation = result(group, Name.observationSubclass) {
        check(
            "\(operation) in a subclass of a class declaring Observable ≤ @Observable's",
            formatRatio(subclass / observation), subclass <= observation)
    }
    if let subclass = result(group, Name.observedSubclass), let root = result(group, Name.observed) {
        // The speed gate checks that the two run the same instructions; in time, within noise.
        check(
            "\(operation) in a subclass of a class not Observable ≈ without a superclass (≤ 1.1×)",
            formatRatio(subclass / root), subclass <= root * 1.1)
    }
}
check("compile time ≤ 0.8× @Observable", "see Benchmarks/compile-time.sh", nil)
