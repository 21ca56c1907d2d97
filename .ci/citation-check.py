#!/usr/bin/env python3
"""Checks that every section a file cites exists: `Design.md, "Rooms"`, `BENCHMARKS.md's "Compile time"`,
`Semantics.md ("In initializers")`, in any tracked source, test, script or document, names a heading
(`#`, `##`, ...) of that Markdown file, spelt exactly. A citation may wrap across comment lines.

usage: .ci/citation-check.py   (from anywhere; reads the files git tracks)
"""
import os, re, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TEXT = (".swift", ".md", ".py", ".sh", ".tsv", ".yml", "run")
# `Name.md` then `,` or `'s` or ` (`, then a quoted section title.
CITATION = re.compile(r'\b([A-Za-z][\w-]*\.md)(?:,|\'s| \()\s*(?:section\s+)?"([^"\n]{2,120})"')
# A line break and what continues a comment on the next line: `///`, `//`, `#`, `>`, `*`.
CONTINUATION = re.compile(r'\s*\n\s*(?:///?|#|>|\*)?[ \t]*')


# Each form the pattern must find, a wrapped one included: a pattern that found none would pass.
SAMPLES = ['Design.md, "Rooms"', "BENCHMARKS.md's \"Compile time\"", 'Semantics.md ("In initializers")',
           '/// see Design.md,\n/// "What the macro tells the\n/// runtime of a class".']


def tracked():
    names = subprocess.run(["git", "ls-files"], cwd=ROOT, check=True, stdout=subprocess.PIPE, text=True)
    return [name for name in names.stdout.splitlines() if name.endswith(TEXT)]


def headings(files):
    """Each Markdown file's headings, by its name (a name two files share is ambiguous: both count)."""
    found = {}
    for name in files:
        if name.endswith(".md"):
            text = open(os.path.join(ROOT, name), encoding="utf-8").read()
            titles = {match.strip() for match in re.findall(r"^#{1,6} (.+)$", text, re.M)}
            found.setdefault(os.path.basename(name), set()).update(titles)
    return found


def main():
    for sample in SAMPLES:
        if not CITATION.search(CONTINUATION.sub(" ", sample)):
            sys.exit(f"the citation pattern no longer finds {sample!r}")
    files = tracked()
    known = headings(files)
    problems, cited = [], 0
    for name in files:
        text = open(os.path.join(ROOT, name), encoding="utf-8").read()
        joined = CONTINUATION.sub(" ", text)
        for document, section in CITATION.findall(joined):
            cited += 1
            if document not in known:
                problems.append(f"{name}: cites {document}, which is not in the repository")
            elif section not in known[document]:
                problems.append(f'{name}: cites {document}, "{section}", which has no such heading')
    if problems:
        print("\n".join(problems))
        sys.exit(f"{len(problems)} citation(s) name a section that does not exist")
    print(f"the {cited} citations of a section in {len(files)} files name sections that exist")


if __name__ == "__main__":
    main()
