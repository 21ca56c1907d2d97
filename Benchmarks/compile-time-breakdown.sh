#!/usr/bin/env bash
# Where the compile time of compile-time.sh's models goes. For each model it built (same WORK
# folder), it replays the two frontend jobs SwiftPM runs for the model module (the object file, and
# the module interface), each alone, and reports:
#   - each job's wall time, with the macro plugin as SwiftPM built it (debug) and built in release;
#   - the plugin's CPU time in each job (a wrapper snapshots /proc while it runs, because the
#     compiler kills it at the end) and the number of expansions it was asked for;
#   - the type checker's time per accessor kind of the expanded code (-debug-time-function-bodies);
#   - what the object-file job emits (SIL and IR functions, IR instructions, object bytes) and its
#     phases' wall time (-stats-output-dir; the timers slow the job, so compare models, not runs).
#   WORK=/tmp/ct Benchmarks/compile-time.sh && WORK=/tmp/ct Benchmarks/compile-time-breakdown.sh
#   MODELS="annotated-observable observable" WORK=/tmp/ct Benchmarks/compile-time-breakdown.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
work=${WORK:?"set WORK to the folder compile-time.sh used"}
out=$(mktemp -d "${TMPDIR:-/tmp}/compile-time-breakdown.XXXXXX")
release_plugin=${RELEASE_PLUGIN:-}
if [ -z "$release_plugin" ]; then
    swift build -c release --package-path "$root" --scratch-path "$root/.build-release" \
        --product ObservableMacros-tool > "$out/release-plugin.log" 2>&1
    release_plugin=$(swift build -c release --package-path "$root" --scratch-path "$root/.build-release" \
        --show-bin-path)/ObservableMacros-tool
fi

# The wrapper the compiler starts instead of the plugin: it records what the compiler sends (to count
# the expansions) and snapshots the plugin's /proc stat until it exits.
cat > "$out/plugin.sh" <<'WRAPPER'
#!/usr/bin/env bash
. "$(dirname "$0")/current"
tee "$log.in" | { echo "$BASHPID" > "$log.pid"; exec "$plugin" "$@"; } &
until [ -s "$log.pid" ]; do sleep 0.01; done
pid=$(cat "$log.pid")
(while [ -e "/proc/$pid/stat" ]; do cat "/proc/$pid/stat" > "$log.stat" 2>/dev/null; sleep 0.05; done) \
    < /dev/null > /dev/null 2>&1 &
wait
WRAPPER
chmod +x "$out/plugin.sh"

plugin_report() { # $1: log prefix → "N expansions, S s CPU"
    python3 - "$1" <<'PY'
import os, struct, sys, json
log = sys.argv[1]
expansions = 0
try:
    data = open(log + ".in", "rb").read()
    i = 0
    while i + 8 <= len(data):
        n = struct.unpack("<Q", data[i:i + 8])[0]
        if n == 0 or i + 8 + n > len(data): break
        if b'"expandAttachedMacro"' in data[i + 8:i + 40] or b'"expandFreestandingMacro"' in data[i + 8:i + 40]:
            expansions += 1
        i += 8 + n
except FileNotFoundError:
    pass
cpu = 0.0
try:
    fields = open(log + ".stat").read().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
except (FileNotFoundError, IndexError):
    pass
print(f"{expansions} expansions, {cpu:.2f} s CPU")
PY
}

run_job() { # $1 model, $2 job (c | m), $3 plugin path or "", then extra frontend flags
    local model=$1 job=$2 plugin=$3
    shift 3
    local cmd=$(cat "$out/$model.$job.cmd")
    local debug_plugin="$work/$model/.build/x86_64-unknown-linux-gnu/debug/ObservableMacros-tool"
    local log="$out/$model-$job-$(basename "$(dirname "$plugin")")"
    rm -f "$log".*
    printf 'plugin=%q\nlog=%q\n' "$plugin" "$log" > "$out/current"
    cmd=${cmd//"$debug_plugin#"/"$out/plugin.sh#"}
    # Outputs go beside the report, so that the model's build folder is untouched; named by their kind
    # (the frontend records no IR statistics for an object file not named `.o`).
    local output=$out/$model.o
    [ "$job" = m ] && output=$out/$model.swiftmodule
    cmd=$(sed -E "s# -o [^ ]+# -o $output#; s#-index-store-path [^ ]+#-index-store-path $out/index#" <<< "$cmd")
    local start end
    start=$(date +%s.%N)
    $cmd "$@" > "$log.out" 2>&1 || { cat "$log.out"; exit 1; }
    end=$(date +%s.%N)
    sleep 0.5
    awk -v s="$start" -v e="$end" 'BEGIN { printf "%.2f s", e - s }'
    [ -n "$plugin" ] && printf ' (plugin: %s)' "$(plugin_report "$log")"
    echo
}

for model in ${MODELS:-observed annotated annotated-observable annotated-codable observable observable-codable}; do
    [ -d "$work/$model" ] || continue
    touch "$work/$model/Sources/Model/Model.swift"
    (cd "$work/$model" && swift build -v --target Model 2>&1) | grep -E '^/[^ ]*swift-frontend -frontend' \
        | grep -F "$work/$model/Sources/Model/Model.swift" > "$out/$model.cmds"
    grep -F -- '-frontend -c ' "$out/$model.cmds" > "$out/$model.c.cmd"
    grep -F -- '-frontend -emit-module ' "$out/$model.cmds" > "$out/$model.m.cmd"
    echo "## $model"
    debug_plugin=""
    [[ "$model" != observable* ]] && debug_plugin="$work/$model/.build/x86_64-unknown-linux-gnu/debug/ObservableMacros-tool"
    run_job $model c "$debug_plugin" > /dev/null # warms the index store and the file cache
    if [[ "$model" == observable* ]]; then
        echo "object file:      $(run_job $model c '')"
        echo "module interface: $(run_job $model m '')"
    else
        for plugin in "$debug_plugin" "$release_plugin"; do
            kind=debug
            [ "$plugin" = "$release_plugin" ] && kind=release
            echo "object file, $kind plugin:      $(run_job $model c "$plugin")"
            echo "module interface, $kind plugin: $(run_job $model m "$plugin")"
        done
    fi
    # The type checker's time per function body of the object-file job, summed by kind.
    run_job $model c "$debug_plugin" -debug-time-function-bodies > /dev/null
    log="$out/$model-c-$(basename "$(dirname "${debug_plugin:-.}")")"
    python3 - "$log.out" <<'PY'
import collections, sys
totals = collections.Counter(); counts = collections.Counter()
for line in open(sys.argv[1], errors="replace"):
    parts = line.rstrip("\n").split("\t")
    if len(parts) < 3 or not parts[0].endswith("ms"): continue
    kind = parts[2].split(" Model.")[0]
    totals[kind] += float(parts[0][:-2]); counts[kind] += 1
print(f"type-checking function bodies: {sum(totals.values()):.0f} ms in {sum(counts.values())} bodies")
for kind, ms in totals.most_common(8):
    print(f"  {ms:8.0f} ms  {counts[kind]:6d}  {kind}")
PY
    # What the expanded code costs after the type checker: the frontend's own counters and phase timers.
    rm -rf "$out/stats-$model" && mkdir -p "$out/stats-$model"
    run_job $model c "$debug_plugin" -stats-output-dir "$out/stats-$model" > /dev/null
    python3 - "$out/stats-$model" <<'PY'
import glob, json, sys
stats = json.load(open(glob.glob(sys.argv[1] + "/*.json")[0]))
print("emitted: {:,} SIL functions, {:,} IR functions, {:,} IR instructions, {:.1f} MB of object code".format(
    stats.get("SILModule.NumSILGenFunctions", 0), stats.get("IRModule.NumIRFunctions", 0),
    stats.get("IRModule.NumIRInsts", 0), stats.get("LLVM.NumLLVMBytesOutput", 0) / 1e6))
total = next(v for k, v in stats.items() if k.startswith("time.swift-frontend.") and k.endswith(".wall"))
phases = {"type checking": "time.swift.perform-sema.wall", "SILGen": "time.swift.SILGen.wall",
          "SIL optimisation": "time.swift.SIL optimization.wall", "IRGen": "time.swift.IRGen.wall"}
measured = {name: stats.get(key, 0) for name, key in phases.items()}
parts = ", ".join(f"{name} {seconds:.1f} s" for name, seconds in measured.items())
print(f"phases (timers on, slower): {total:.1f} s: {parts}, the rest (LLVM) {total - sum(measured.values()):.1f} s")
PY
done
echo "raw logs: $out"
