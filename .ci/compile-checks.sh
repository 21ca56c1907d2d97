#!/usr/bin/env bash
# Compiles each Tests/CompileChecks/*.swift as a user's code against the debug build (see the README
# there) and checks the outcome its header states.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=.build/debug
test -d "$bin/Modules" || { echo "build first: swift build --build-tests"; exit 1; }
failed=0
for file in Tests/CompileChecks/*.swift; do
    ok=1
    output=$(swiftc -emit-sil -o /dev/null -swift-version 6 -I "$bin/Modules" \
        -load-plugin-executable "$bin/ObservableMacros-tool#ObservableMacros" "$file" 2>&1) && status=0 || status=$?
    if grep -q '^// expect: builds' "$file"; then
        if [ "$status" -ne 0 ] || grep -qE '(error|warning):' <<<"$output"; then
            echo "FAIL $file: expected to build without warnings"; echo "$output"; failed=1; ok=0
        fi
    elif grep -q '^// expect: warns' "$file"; then
        # Builds, with exactly the warnings the header lists (each line names file:line:column).
        warnings=$(grep -E '^[^ ].*warning:' <<<"$output" | sed 's|^.*/||' | sort -u || true)
        if [ "$status" -ne 0 ] || grep -qE '^[^ ].*error:' <<<"$output"; then
            echo "FAIL $file: expected to build"; echo "$output"; failed=1; ok=0
        fi
        while IFS= read -r expected; do
            if ! grep -qF -- "$expected" <<<"$warnings"; then
                echo "FAIL $file: no warning: $expected"; echo "$warnings"; failed=1; ok=0
            fi
        done < <(sed -n "s|^// expect-warning: ||p" "$file")
        count=$(sed -n 's|^// expect-warning-count: ||p' "$file")
        actual=$(grep -c . <<<"$warnings" || true)
        if [ "$actual" -ne "${count:-0}" ]; then
            echo "FAIL $file: $actual warnings, the header expects ${count:-0}"; echo "$warnings"; failed=1; ok=0
        fi
    else
        if [ "$status" -eq 0 ]; then echo "FAIL $file: expected the build to fail"; failed=1; ok=0; fi
        for kind in error note; do
            while IFS= read -r expected; do
                if ! grep "$kind:" <<<"$output" | grep -qF -- "$expected"; then
                    echo "FAIL $file: no $kind containing: $expected"; echo "$output" | grep "$kind:" | sort -u
                    failed=1; ok=0
                fi
            done < <(sed -n "s|^// expect-$kind: ||p" "$file")
        done
        grep -q '^// expect-error: ' "$file" || { echo "FAIL $file: no expectation in its header"; failed=1; ok=0; }
        # Every error is one the header expects: one mistake, one error, ours.
        errors=$(grep -E '^[^ ].*error:' <<<"$output" | sort -u || true)
        while IFS= read -r line; do
            [ -n "$line" ] || continue
            if ! grep -qF -f <(sed -n "s|^// expect-error: ||p" "$file") <<<"$line"; then
                echo "FAIL $file: an error the header does not expect: $line"; failed=1; ok=0
            fi
        done <<<"$errors"
        if count=$(sed -n 's|^// expect-error-count: ||p' "$file") && [ -n "$count" ]; then
            actual=$(grep -c . <<<"$errors" || true)
            if [ "$actual" -ne "$count" ]; then
                echo "FAIL $file: $actual errors, the header expects $count"; echo "$errors"; failed=1; ok=0
            fi
        fi
    fi
    if [ "$ok" -eq 1 ]; then echo "ok   $file"; fi
done
exit "$failed"
