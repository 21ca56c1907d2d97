#!/usr/bin/env bash
# Compile time of a generated model (200 classes × 10 properties by default) written with
# ObservableCore's @Observed, and with @KeyValueObservable on each class (plain `var`s), versus the
# same model with Apple's @Observable. Dependencies (and the
# macro plugin) are built first; what is timed is rebuilding the model module alone, RUNS times,
# reporting each median and the ratio.
#   Benchmarks/compile-time.sh                 # 200 × 10, debug, 3 runs
#   CLASSES=50 PROPERTIES=4 RUNS=1 CONFIG=release Benchmarks/compile-time.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
classes=${CLASSES:-200}
properties=${PROPERTIES:-10}
runs=${RUNS:-3}
config=${CONFIG:-debug}
work=${WORK:-$(mktemp -d "${TMPDIR:-/tmp}/compile-time.XXXXXX")}

generate() { # $1: observed | annotated | observable
    local kind=$1 file=$2
    {
        if [ "$kind" = observable ]; then echo "import Observation"; else echo "import ObservableCore"; fi
        for ((c = 0; c < classes; c++)); do
            if [ "$kind" = observed ]; then
                echo "public final class Model$c: KeyValueObservable {"
                for ((p = 0; p < properties; p++)); do echo "    @Observed public var p$p: Int = $p"; done
            elif [ "$kind" = annotated ]; then
                echo "@KeyValueObservable public final class Model$c {"
                for ((p = 0; p < properties; p++)); do echo "    public var p$p: Int = $p"; done
            else
                echo "@Observable public final class Model$c {"
                for ((p = 0; p < properties; p++)); do echo "    public var p$p: Int = $p"; done
            fi
            echo "    public init() {}"
            echo "}"
        done
    } > "$file"
}

setup() { # $1: observed | annotated | observable
    local kind=$1 dir="$work/$1"
    mkdir -p "$dir/Sources/Model"
    generate "$kind" "$dir/Sources/Model/Model.swift"
    if [ "$kind" != observable ]; then
        cat > "$dir/Package.swift" <<PKG
// swift-tools-version: 6.0
import PackageDescription
let package = Package(
    name: "ObservedModel",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "$root")],
    targets: [.target(name: "Model", dependencies: [.product(name: "ObservableCore", package: "$(basename "$root")")])],
    swiftLanguageModes: [.v6])
PKG
    else
        cat > "$dir/Package.swift" <<PKG
// swift-tools-version: 6.0
import PackageDescription
let package = Package(
    name: "ObservableModel",
    platforms: [.macOS(.v14)],
    targets: [.target(name: "Model")],
    swiftLanguageModes: [.v6])
PKG
    fi
    (cd "$dir" && swift build -c "$config" > build.log 2>&1) || { cat "$dir/build.log"; exit 1; }
}

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

time_model() { # $1: observed | annotated | observable → median seconds to rebuild the model module
    local dir="$work/$1"
    for ((r = 0; r < runs; r++)); do
        touch "$dir/Sources/Model/Model.swift"
        local start end
        start=$(date +%s.%N)
        (cd "$dir" && swift build -c "$config" --target Model > /dev/null 2>&1)
        end=$(date +%s.%N)
        awk -v s="$start" -v e="$end" 'BEGIN { printf "%.2f\n", e - s }'
    done | median
}

echo "model: $classes classes × $properties properties, $config build, median of $runs rebuilds of the model module"
echo "work folder: $work"
echo "commit: $(git -C "$root" rev-parse --short HEAD), $(date -u +%Y-%m-%d)"
setup observed
setup annotated
setup observable
observed=$(time_model observed)
annotated=$(time_model annotated)
observable=$(time_model observable)
ratio() { awk -v a="$1" -v b="$observable" 'BEGIN { printf "%.2f", a / b }'; }
echo "| model | rebuild time | vs @Observable |"
echo "| --- | ---: | ---: |"
echo "| @Observed on each property (ObservableCore) | ${observed} s | $(ratio "$observed")× |"
echo "| @KeyValueObservable on each class (ObservableCore) | ${annotated} s | $(ratio "$annotated")× |"
echo "| @Observable (Observation) | ${observable} s | 1.00× |"
