#!/usr/bin/env bash
# Fails on any change to the public API that would break code written against the commit in
# .ci/api-baseline (issue 20's freeze). The baseline is cloned and built from this repository's history.
set -euo pipefail
cd "$(dirname "$0")/.."

baseline=$(grep -v '^#' .ci/api-baseline)
git cat-file -e "$baseline^{commit}"   # a shallow clone lacks it: fetch the history first
swift package diagnose-api-breaking-changes "$baseline" --products ObservableCore
