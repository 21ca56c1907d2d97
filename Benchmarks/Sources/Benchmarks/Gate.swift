// The speed gate's half in the benchmark binary: `Benchmarks --gate` runs each gated case once,
// warmed up, inside `observableCoreGateMeasured`, and `.ci/speed-gate.py` counts what that function executes under
// callgrind (instructions per operation) and allocations counted in process: figures no noisy
// machine can disturb.
import CHeapInfo

/// A benchmark the gate counts, by the group and the start of the name it has in the tables.
struct GateCase {
    /// The key of its budget in `Benchmarks/speed-budgets.tsv`.
    let id: String
    let group: String
    let name: String
    /// Operations counted: enough that one-time costs (a table growing) are amortised.
    let iterations: Int
}

/// The cases counted, in order.
let gateCases = fixedGateCases + recordingGateCases + applyingGateCases

private let fixedGateCases = [
    GateCase(id: "get", group: "get", name: Name.observed, iterations: 20_000),
    GateCase(id: "set, no observers", group: "set, no observers", name: Name.observed, iterations: 20_000),
    GateCase(id: "set, 1 observer", group: "set, 1 observer", name: Name.observed, iterations: 10_000),
    GateCase(
        id: "in place, no observers", group: "in place (+= 1), no observers", name: Name.observed, iterations: 20_000),
    GateCase(
        id: "append and removeLast, no observers", group: "append and removeLast, no observers",
        name: Name.observed, iterations: 10_000),
    GateCase(
        id: "set a String, no observers", group: "set a String, no observers", name: Name.observed,
        iterations: 20_000),
    GateCase(
        id: "controller set, 1 observer", group: "set, 1 observer", name: Name.observed + " controller",
        iterations: 10_000),
    GateCase(id: "set, 10 observers", group: "set, 10 observers", name: Name.observed, iterations: 5_000),
    GateCase(
        id: "nested leaf change", group: "nested path: leaf change", name: Name.observed + " \\.child?.leaf",
        iterations: 5_000),
    GateCase(
        id: "intermediate replaced", group: "nested path: intermediate replaced", name: Name.observed, iterations: 2_000
    ),
    // The floor of the case above, counted beside it: a ratio no noisy machine can move.
    GateCase(
        id: "least re-wire (reference)", group: "nested path: intermediate replaced", name: Name.rewireReference,
        iterations: 2_000),
    GateCase(
        id: "least guarded re-wire (reference)", group: "nested path: intermediate replaced",
        name: Name.guardedRewireReference, iterations: 2_000),
    GateCase(
        id: "least re-wire of this API (reference)", group: "nested path: intermediate replaced",
        name: Name.apiRewireReference, iterations: 2_000),
    GateCase(
        id: "observe + cancel, token", group: "observe + cancel", name: Name.observed + " \\.value token",
        iterations: 2_000),
    GateCase(
        id: "observe + cancel, nested", group: "observe + cancel", name: Name.observed + " \\.child?.leaf token",
        iterations: 2_000),
    GateCase(id: "bridged get", group: "bridged: get", name: Name.bridged, iterations: 20_000),
    GateCase(
        id: "bridged set, no observers", group: "bridged: set, no observers", name: Name.bridged, iterations: 20_000),
    GateCase(id: "bridged set, 1 observer", group: "bridged: set, 1 observer", name: Name.bridged, iterations: 10_000),
    GateCase(id: "bridged class get", group: "bridged: get", name: Name.bridgedClass, iterations: 20_000),
    GateCase(
        id: "bridged class set, no observers", group: "bridged: set, no observers", name: Name.bridgedClass,
        iterations: 20_000),
    GateCase(
        id: "bridged class set, 1 observer", group: "bridged: set, 1 observer", name: Name.bridgedClass,
        iterations: 10_000),
    GateCase(
        id: "bridged class in place, no observers", group: "bridged: in place (+= 1), no observers",
        name: Name.bridgedClass, iterations: 20_000),
    GateCase(id: "bridged own access get", group: "bridged: get", name: Name.bridgedOwnAccess, iterations: 20_000),
    GateCase(
        id: "bridged own access set, no observers", group: "bridged: set, no observers", name: Name.bridgedOwnAccess,
        iterations: 20_000),
    GateCase(
        id: "bridged own access set, 1 observer", group: "bridged: set, 1 observer", name: Name.bridgedOwnAccess,
        iterations: 10_000),
    GateCase(
        id: "bridged own access in place, no observers", group: "bridged: in place (+= 1), no observers",
        name: Name.bridgedOwnAccess, iterations: 20_000),
    GateCase(id: "subclass get", group: "subclass: get", name: Name.observedSubclass, iterations: 20_000),
    GateCase(
        id: "subclass set, no observers", group: "subclass: set, no observers", name: Name.observedSubclass,
        iterations: 20_000),
    GateCase(id: "bridged subclass get", group: "subclass: get", name: Name.bridgedSubclass, iterations: 20_000),
    GateCase(
        id: "bridged subclass set, no observers", group: "subclass: set, no observers", name: Name.bridgedSubclass,
        iterations: 20_000),
    GateCase(
        id: "observe + cancel, controller", group: "observe + cancel", name: Name.observed + " controller",
        iterations: 2_000),
    GateCase(
        id: "string key path set, 1 observer", group: "string key path: set, 1 observer",
        name: Name.observed + " \"value\"", iterations: 10_000),
    GateCase(
        id: "string key path set, newValue(as:)", group: "string key path: set, 1 observer",
        name: Name.observed + " \"value\", read with newValue(as:)", iterations: 10_000),
    GateCase(
        id: "string key path set a String, newValue(as:)", group: "string key path: set a String, 1 observer",
        name: Name.observed + " \"name\", read with newValue(as:)", iterations: 10_000),
    GateCase(
        id: "observe + cancel, string key path", group: "string key path: observe + cancel",
        name: Name.observed + " \"value\" token", iterations: 2_000),
    GateCase(
        id: "whole object set, newValue(as:)", group: "whole object: set, 1 observer", name: Name.wholeObject,
        iterations: 10_000),
    GateCase(
        id: "graph set at the root, new values only", group: "whole object: set, 1 observer",
        name: Name.graph + " of the object, new values only", iterations: 10_000),
    GateCase(
        id: "graph set deep inside", group: "whole object: graph of 10,000 objects",
        name: Name.graph + ", a set deep inside", iterations: 10_000),
    GateCase(
        id: "changes(of:), setting thread", group: "async sequence: per change",
        name: Name.observed + " changes(of: \\.value), the setting", iterations: 10_000),
]

// Recording a set with the least recorders, on typed and on deep observation, and the observers it is read
// against, counted beside it; the recorders' operations are taken every 1,024 sets, so that making
// them is counted.
private let recordingGateCases = [
    ("patch: recording a set", Name.recorder),
    ("patch: least deep recorder (reference)", "least deep recorder:"),
    ("patch: least recorder (reference)", "least recorder:"),
    ("patch: deep observer (reference)", Name.graph + " (old+new)"),
    ("patch: whole-object observer (reference)", Name.wholeObject + " (old+new)"),
].map { GateCase(id: $0, group: "JSON Patch: recording a set", name: $1, iterations: 10_240) }

// A one-operation patch costs what its path reaches, not the whole document's encoding: neither
// the objects it does not go into nor the values beside it.
private let applyingGateCases = [
    ("patch: apply of 1 replace, 10,000-object document", " apply(_:) of 1 replace (each", 1_000),
    ("patch: apply of 1 replace beside 100,000 numbers", " apply(_:) of 1 replace beside", 1_000),
    ("patch: apply of 1 replace in a 20,000-entry dictionary", " apply(_:) of 1 replace in a", 3),
].map {
    GateCase(
        id: $0, group: "JSON Patch: 10,000 operations, 10,000-object document", name: Name.observed + $1,
        iterations: $2)
}

/// The function whose instructions callgrind counts (`--toggle-collect`, `--dump-after`, matching the
/// name inside its mangled symbol): one profile per call.
@inline(never)
func observableCoreGateMeasured(_ run: (Int) -> Void, _ iterations: Int) {
    run(iterations)
}

/// Prints `gate <id> <iterations> <allocations>` for each case, in the order of callgrind's profiles.
/// Allocations are counted here, by the interposed allocator: callgrind's call counts include calls
/// made while its collection is off.
func runGate(_ benchmarks: [Benchmark]) {
    for gateCase in gateCases {
        guard
            let benchmark = benchmarks.first(where: { $0.group == gateCase.group && $0.name.hasPrefix(gateCase.name) })
        else {
            fatalError("the speed gate's case '\(gateCase.id)' names no benchmark")
        }
        benchmark.run(gateCase.iterations / 10)
        let allocationsBefore = cheapinfo_allocations()
        observableCoreGateMeasured(benchmark.run, gateCase.iterations)
        let allocations = cheapinfo_allocations() - allocationsBefore
        print("gate\t\(gateCase.id)\t\(gateCase.iterations)\t\(allocations)")
    }
}
