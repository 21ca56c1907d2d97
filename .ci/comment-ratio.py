#!/usr/bin/env python3
"""Comments say why, in a line or two: at most 0.25 comment lines per code line in the runtime.

Counts non-blank lines of Sources/ObservableCore/**/*.swift: a line starting with `//` (or inside
`/* */`) is a comment, any other a code line. Excepted, as Design.md's "Unsafe code" asks of them:
the comment directly above the declaration of each type or member that section's table names (what
it assumes, which test proves it). `--list` prints each file's counts, most comments first.
"""
import os, re, sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
LIMIT = 0.25


def unsafe_names():
    design = open(os.path.join(root, "Design.md")).read()
    section = design.split("## Unsafe code", 1)[1].split("\n## ", 1)[0]
    names = set()
    for row in section.splitlines():
        cells = row.split("|")
        if len(cells) > 3 and not set(cells[2].strip()) <= set("- "):
            for name in re.findall(r"`([A-Za-z_.]+)", cells[2]):
                parts = name.split(".")
                names.add(parts[0] if len(parts) == 1 else (parts[0], parts[-1]))
    return names


DECL = re.compile(r"^\s*(?:@[\w(), :.*\"=-]+\s+)*(?:(?:public|internal|private|fileprivate|open|final|nonisolated"
                  r"|package|static|mutating|override|@usableFromInline|@inlinable)\s+)*"
                  r"(?:class|struct|enum|protocol|func|let|var|typealias)\s+([A-Za-z_][\w]*)")


def count(path, names):
    # A type the table names, anywhere; a member it names (`Type.member`), in the type's own file.
    own_type = os.path.basename(path)[:-len(".swift")]
    excepted = {n for n in names if isinstance(n, str)} | {m for t, m in (n for n in names if isinstance(n, tuple)) if t == own_type}
    lines = open(path).read().split("\n")
    comments = code = exempt = 0
    block, in_star = [], False
    for line in lines:
        text = line.strip()
        if not text:
            continue
        if in_star or text.startswith("//") or text.startswith("/*"):
            if text.startswith("/*") and "*/" not in text:
                in_star = True
            elif in_star and "*/" in text:
                in_star = False
            comments += 1
            block.append(text)
            continue
        if text.startswith("@") and block:  # attributes between a header and its declaration
            code += 1
            continue
        declared = DECL.match(line)
        if declared and declared.group(1) in excepted:
            exempt += len(block)
        block = []
        code += 1
    return comments - exempt, code, exempt


def main():
    excepted = unsafe_names()
    totals, rows = [0, 0, 0], []
    for folder, _, files in os.walk(os.path.join(root, "Sources", "ObservableCore")):
        for name in sorted(files):
            if name.endswith(".swift"):
                path = os.path.join(folder, name)
                counted = count(path, excepted)
                rows.append((counted, os.path.relpath(path, root)))
                totals = [a + b for a, b in zip(totals, counted)]
    comments, code, exempt = totals
    if "--list" in sys.argv:
        for (c, k, e), path in sorted(rows, reverse=True):
            print(f"{c:5} {k:5} {c / max(k, 1):5.2f}  {path}" + (f"  (+{e} unsafe header)" if e else ""))
    ratio = comments / code
    print(f"comment lines {comments} per code line {code}: {ratio:.3f} (limit {LIMIT}; "
          f"{exempt} lines of unsafe types' headers not counted)")
    if ratio > LIMIT:
        sys.exit("comments above the limit: say why in a line or two; the articles say the rest")


main()
