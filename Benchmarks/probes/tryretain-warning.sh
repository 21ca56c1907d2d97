#!/usr/bin/env bash
# Prints what the compiler says to a declaration of the runtime's `swift_tryRetain`, the primitive a
# path delivery would need instead of a weak load of its root: an interface private to the runtime,
# which the package does not call.
set -euo pipefail
out=$(mktemp -d)
cat > "$out/probe.swift" <<'SWIFT'
@_silgen_name("swift_tryRetain")
func tryRetain(_ object: UnsafeRawPointer) -> Bool
final class Object {}
let object = Object()
print(tryRetain(UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())))
SWIFT
swiftc -O "$out/probe.swift" -o "$out/probe" 2>&1 | grep -E "warning|error" || echo "no diagnostic"
rm -rf "$out"
