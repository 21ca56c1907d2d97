#!/usr/bin/env bash
# Builds the DocC catalogue (Sources/ObservableCore/ObservableCore.docc) with the toolchain's own docc
# and fails on any warning, unresolved symbol links included; .ci/docs-check.py first checks that every
# public symbol is documented and curated. The symbol graph comes from the debug build `swift test`
# leaves in .build (`dump-symbol-graph` extracts it from the built module: the same graph as
# `-emit-symbol-graph`, without a second build of swift-syntax).
set -euo pipefail
cd "$(dirname "$0")/.."

swift package dump-symbol-graph --minimum-access-level public > /dev/null
graphs=$(mktemp -d "${TMPDIR:-/tmp}/observablecore-symbol-graphs.XXXXXX")
cp "$(dirname "$(swift build --show-bin-path)")/symbolgraph/ObservableCore.symbols.json" "$graphs/"
python3 .ci/docs-check.py "$graphs" Sources/ObservableCore/ObservableCore.docc

if command -v docc > /dev/null; then docc=(docc); else docc=(xcrun docc); fi
"${docc[@]}" convert Sources/ObservableCore/ObservableCore.docc \
    --additional-symbol-graph-dir "$graphs" \
    --fallback-display-name ObservableCore --fallback-bundle-identifier ObservableCore \
    --output-path "$graphs/ObservableCore.doccarchive" --warnings-as-errors
echo "documentation built: $(find "$graphs/ObservableCore.doccarchive/data/documentation" -name '*.json' | wc -l) pages"
rm -rf "$graphs"
