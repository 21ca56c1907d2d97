#!/usr/bin/env bash
# Builds atomic-arc-barrier.swift three ways (inline relaxed Atomic load; the same load in a
# readonly, late-inlined method; a plain field) and prints the retains and releases in the loop.
# A `swift_retain` before the slot's test means every set pays a retain and a release.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d)
for variant in ATOMIC LATE PLAIN; do
    swiftc -O -parse-as-library -module-name probe -D "$variant" "$here/atomic-arc-barrier.swift" -o "$out/$variant"
    echo "== $variant: the loop's instructions up to its slow path"
    objdump -d --no-show-raw-insn "$out/$variant" | swift demangle --simplified \
        | awk '/<loop\(_:_:\)>:/,/^$/' | sed -n '/and .*0x3ff/,/slowPath/p'
done
rm -rf "$out"
