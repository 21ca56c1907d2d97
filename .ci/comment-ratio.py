#!/usr/bin/env python3
"""Comments say why, in a line or two: at most 0.25 comment lines per code line in the runtime.

Counts non-blank lines of Sources/ObservableCore/**/*.swift: a line starting with `//` (or inside
`/* */`) is a comment, any other a code line. `--list` prints each file's counts, most comments first.
"""
import os, sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
LIMIT = 0.25


def count(path):
    comments = code = 0
    in_block = False
    for line in open(path):
        text = line.strip()
        if not text:
            continue
        if in_block or text.startswith("//") or text.startswith("/*"):
            if text.startswith("/*") and "*/" not in text:
                in_block = True
            elif in_block and "*/" in text:
                in_block = False
            comments += 1
        else:
            code += 1
    return comments, code


rows = []
for folder, _, files in os.walk(os.path.join(root, "Sources", "ObservableCore")):
    rows += [(count(os.path.join(folder, name)), os.path.relpath(os.path.join(folder, name), root))
             for name in files if name.endswith(".swift")]
comments, code = sum(c for (c, _), _ in rows), sum(k for (_, k), _ in rows)
if "--list" in sys.argv:
    for (c, k), path in sorted(rows, reverse=True):
        print(f"{c:5} {k:5} {c / max(k, 1):5.2f}  {path}")
print(f"comment lines {comments} per code line {code}: {comments / code:.3f} (limit {LIMIT})")
if comments / code > LIMIT:
    sys.exit("comments above the limit: say why in a line or two; the articles say the rest")
