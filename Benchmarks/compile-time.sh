#!/usr/bin/env bash
# Compile time of a generated model (200 classes × 10 properties by default) written with
# ObservableCore's @Observed, and with @KeyValueObservable on each class (plain `var`s), versus the
# same model with Apple's @Observable; with ALL=1 also @KeyValueObservable classes declaring
# `Observable` (against @Observable) and `Codable` (against @Observable classes declaring `Codable`).
# Dependencies (and the macro plugin) are built first; what is timed is rebuilding the model module
# alone, RUNS times, reporting each median and the ratio. compile-time-breakdown.sh, given the same
# WORK folder, says where the time goes.
#   Benchmarks/compile-time.sh                 # 200 × 10, debug, 3 runs
#   ALL=1 WORK=/tmp/ct Benchmarks/compile-time.sh
#   MODELS="annotated-observable observable" WORK=/tmp/ct Benchmarks/compile-time.sh
#   CLASSES=50 PROPERTIES=4 RUNS=1 CONFIG=release Benchmarks/compile-time.sh
# FLOOR=1 adds the floor: the same models with the macros' expansion written out by hand
# (written-out-model.py), which no macro runs for: what the expanded code costs by itself; and the
# floor of any such macro on the stock plugin loop: MinimalMacro/, which generates the least a
# will/did, old/new macro must, built as ours is, and that expansion written out.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
classes=${CLASSES:-200}
properties=${PROPERTIES:-10}
runs=${RUNS:-3}
config=${CONFIG:-debug}
work=${WORK:-$(mktemp -d "${TMPDIR:-/tmp}/compile-time.XXXXXX")}

models="observed annotated observable"
[ -n "${ALL:-}" ] && models="$models annotated-observable annotated-codable observable-codable"
[ -n "${FLOOR:-}" ] && models="$models annotated-written-out annotated-observable-written-out observable-written-out minimal minimal-written-out"
models=${MODELS:-$models}

generate() { # $1: a model of $models
    local kind=$1 file=$2
    if [[ "$kind" == *-written-out ]]; then
        python3 "$here/written-out-model.py" "${kind%-written-out}" "$classes" "$properties" > "$file"
        return
    fi
    {
        case "$kind" in
            observable*) echo "import Observation" ;;
            annotated-observable) printf 'import Observation\nimport ObservableCore\n' ;;
            minimal) echo "import Minimal" ;;
            *) echo "import ObservableCore" ;;
        esac
        for ((c = 0; c < classes; c++)); do
            case "$kind" in
                observed) echo "public final class Model$c: KeyValueObservable {" ;;
                annotated) echo "@KeyValueObservable public final class Model$c {" ;;
                annotated-observable) echo "@KeyValueObservable public final class Model$c: Observable {" ;;
                annotated-codable) echo "@KeyValueObservable public final class Model$c: Codable {" ;;
                observable) echo "@Observable public final class Model$c {" ;;
                observable-codable) echo "@Observable public final class Model$c: Codable {" ;;
                minimal) echo "@MinimalKVO public final class Model$c {" ;;
            esac
            if [ "$kind" = observed ]; then
                for ((p = 0; p < properties; p++)); do echo "    @Observed public var p$p: Int = $p"; done
            else
                for ((p = 0; p < properties; p++)); do echo "    public var p$p: Int = $p"; done
            fi
            echo "    public init() {}"
            echo "}"
        done
    } > "$file"
}

manifest() { # $1: package name, $2: macOS version, $3 and $4: a package by path and its product, if any
    local dependencies="" target='.target(name: "Model")'
    if [ -n "${3:-}" ]; then
        dependencies="dependencies: [.package(path: \"$3\")],"
        target=".target(name: \"Model\", dependencies: [.product(name: \"$4\", package: \"$(basename "$3")\")])"
    fi
    cat <<PKG
// swift-tools-version: 6.0
import PackageDescription
let package = Package(
    name: "$1",
    platforms: [.macOS(.$2)],
    $dependencies
    targets: [$target],
    swiftLanguageModes: [.v6])
PKG
}

setup() { # $1: a model of $models
    local kind=$1 dir="$work/$1"
    mkdir -p "$dir/Sources/Model"
    generate "$kind" "$dir/Sources/Model/Model.swift"
    if [[ "$kind" == minimal* ]]; then
        manifest MinimalModel v15 "$here/MinimalMacro" Minimal > "$dir/Package.swift"
    elif [[ "$kind" != observable* ]]; then
        manifest ObservedModel v15 "$root" ObservableCore > "$dir/Package.swift"
    else
        manifest ObservableModel v14 > "$dir/Package.swift"
    fi
    (cd "$dir" && swift build -c "$config" > build.log 2>&1) || { cat "$dir/build.log"; exit 1; }
}

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

time_model() { # $1: a model of $models → seconds to rebuild the model module once
    local dir="$work/$1"
    touch "$dir/Sources/Model/Model.swift"
    local start end
    start=$(date +%s.%N)
    (cd "$dir" && swift build -c "$config" --target Model > /dev/null 2>&1)
    end=$(date +%s.%N)
    awk -v s="$start" -v e="$end" 'BEGIN { printf "%.2f\n", e - s }'
}

echo "model: $classes classes × $properties properties, $config build, median of $runs rebuilds of the model module (in rounds)"
echo "work folder: $work"
echo "commit: $(git -C "$root" rev-parse --short HEAD), $(date -u +%Y-%m-%d)"
declare -A seconds
for model in $models; do setup "$model"; done
# Rounds, each model once per round, so that the machine's drift during a run (this VM's speed moves
# by several percent over minutes) falls on every model alike rather than on whichever ran last.
declare -A times
for ((r = 0; r < runs; r++)); do
    for model in $models; do times[$model]+="$(time_model "$model") "; done
done
for model in $models; do
    seconds[$model]=$(tr ' ' '\n' <<<"${times[$model]}" | grep . | median)
    echo "$model: ${times[$model]}" >&2
done
ratio() { awk -v a="${seconds[$1]}" -v b="${seconds[$2]}" 'BEGIN { printf "%.2f", a / b }'; }
row() { # a model's row, when it and the model it is compared with were measured
    [ -n "${seconds[$2]:-}" ] && [ -n "${seconds[$3]:-}" ] || return 0
    echo "| $1 | ${seconds[$2]} s | $(ratio "$2" "$3")× \`$3\` |"
}
echo "| model | rebuild time | vs Observation |"
echo "| --- | ---: | ---: |"
row "@Observed on each property (ObservableCore)" observed observable
row "@KeyValueObservable on each class (ObservableCore)" annotated observable
row "@KeyValueObservable on each class declaring \`Observable\`" annotated-observable observable
row "@KeyValueObservable on each class declaring \`Codable\`" annotated-codable observable-codable
row "@Observable on each class declaring \`Codable\` (Observation)" observable-codable observable-codable
row "@Observable (Observation)" observable observable
row "floor: @KeyValueObservable's expansion written out, no macro" annotated-written-out observable
row "floor: … declaring \`Observable\`, written out" annotated-observable-written-out observable
row "floor: @Observable's expansion written out" observable-written-out observable
row "floor: the least will/did, old/new macro (MinimalMacro/), same plugin build" minimal observable
row "floor: … its expansion written out" minimal-written-out observable
