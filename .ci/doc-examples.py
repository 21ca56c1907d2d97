#!/usr/bin/env python3
"""Builds every ```swift block of README.md and of the DocC articles against this checkout.

Each file's blocks, in order, are one program: a block may use what an earlier block of the same
file declared, so an article reads as one example built up step by step. A block that is a fragment
on purpose (it needs SwiftUI, or shows the shape of a declaration) is preceded by a line
`<!-- fragment: why -->`, which GitHub and DocC do not show, and is skipped. The `import` lines of
a file's blocks go first. An article whose examples declare no `Person` or `Address` gets the model
of "Getting started" (`.ci/doc-examples-prelude.swift`): `person` there is that `Person`. Every program is an
executable target of one scratch package outside the repository that depends on this checkout by
path, as a user's package would; the build must finish without errors or warnings from the
examples. The README's first block is also run, and what it prints must be the ```text block that
follows it.

usage: .ci/doc-examples.py [--keep]  (--keep leaves the scratch package for a look; with
DOC_EXAMPLES_SCRATCH=dir the package is built there, and its build kept between runs)
"""
import os, re, shutil, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARTICLES = os.path.join(ROOT, "Sources/ObservableCore/ObservableCore.docc")
FRAGMENT = re.compile(r"^<!--\s*fragment\b")


def blocks(path):
    """The (kind, code, line) of each fenced block of `path`, `kind` being its info string, with
    'fragment' when a fragment marker precedes it."""
    lines = open(path).read().split("\n")
    found, index = [], 0
    while index < len(lines):
        match = re.match(r"^```(\w*)\s*$", lines[index])
        if not match:
            index += 1
            continue
        start, kind = index, match.group(1)
        index += 1
        body = []
        while index < len(lines) and not lines[index].startswith("```"):
            body.append(lines[index])
            index += 1
        index += 1
        previous = next((line for line in reversed(lines[:start]) if line.strip()), "")
        found.append(("fragment" if kind == "swift" and FRAGMENT.match(previous) else kind, "\n".join(body), start + 1))
    return found


def main():
    keep = "--keep" in sys.argv
    sources = [os.path.join(ROOT, "README.md")] + sorted(
        os.path.join(ARTICLES, name) for name in os.listdir(ARTICLES) if name.endswith(".md"))
    reused = os.environ.get("DOC_EXAMPLES_SCRATCH")
    scratch = reused or tempfile.mkdtemp(prefix="observablecore-doc-examples.")
    if reused:
        shutil.rmtree(os.path.join(scratch, "Sources"), ignore_errors=True)
        keep = True
    targets, expected, origins = [], None, {}
    for path in sources:
        found = blocks(path)
        code = [(text, line) for kind, text, line in found if kind == "swift"]
        if path.endswith("README.md"):
            first = next((i for i, (kind, _, _) in enumerate(found) if kind == "swift"), None)
            if first is not None and first + 1 < len(found) and found[first + 1][0] == "text":
                expected = found[first + 1][1].strip("\n")
        if not code:
            continue
        name = "Example" + re.sub(r"\W", "", os.path.splitext(os.path.basename(path))[0])
        os.makedirs(os.path.join(scratch, "Sources", name))
        relative = os.path.relpath(path, ROOT)
        everything = "\n".join(text for text, _ in code)
        if not path.endswith("README.md") and not re.search(r"\bclass (Person|Address)\b", everything):
            shutil.copy(os.path.join(ROOT, ".ci/doc-examples-prelude.swift"),
                        os.path.join(scratch, "Sources", name, "Prelude.swift"))
        imports = sorted({line for text, _ in code for line in text.split("\n") if line.startswith("import ")})
        code = [("\n".join("" if line.startswith("import ") else line for line in text.split("\n")), line)
                for text, line in code]
        generated = len(imports)
        with open(os.path.join(scratch, "Sources", name, "main.swift"), "w") as out:
            out.write("".join(line + "\n" for line in imports))
            for text, line in code:
                out.write(f"// {relative}:{line}\n{text}\n\n")
                # Line `generated + 2 + k` of main.swift is line `line + 1 + k` of the source.
                for k in range(text.count("\n") + 1):
                    origins[(name, generated + 2 + k)] = f"{relative}:{line + 1 + k}"
                generated += text.count("\n") + 3
        targets.append(name)
    package = f"""// swift-tools-version: 6.0
import PackageDescription
let package = Package(
    name: "DocExamples",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [.package(path: "{ROOT}")],
    targets: [
{''.join(f'''        .executableTarget(name: "{t}", dependencies: [
            .product(name: "ObservableCore", package: "{os.path.basename(ROOT)}"),
            .product(name: "ObservableCoreTesting", package: "{os.path.basename(ROOT)}"),
        ]),
''' for t in targets)}    ],
    swiftLanguageModes: [.v6])
"""
    open(os.path.join(scratch, "Package.swift"), "w").write(package)
    print(f"building the examples of {len(targets)} files in {scratch}")
    build = subprocess.run(["swift", "build", "--package-path", scratch], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
    problems = []
    for line in build.stdout.splitlines():
        match = re.match(r".*/Sources/(Example\w+)/main\.swift:(\d+):\d+: ((?:error|warning):.*)", line)
        if match:
            where = origins.get((match.group(1), int(match.group(2))), f"{match.group(1)}:{match.group(2)}")
            problems.append(f"{where}: {match.group(3)}")
    problems = sorted(set(problems))
    if build.returncode != 0 or problems:
        print("\n".join(problems) or build.stdout[-6000:])
        sys.exit("the documentation's examples do not build: each message names the file and line of its block")
    failures = []
    if expected is not None:
        run = subprocess.run([os.path.join(scratch, ".build/debug/ExampleREADME")], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
        if run.stdout.strip("\n") != expected:
            failures.append(f"README.md's first example printed:\n{run.stdout}\nwhere the README says:\n{expected}")
    if not keep:
        shutil.rmtree(scratch)
    if failures:
        sys.exit("\n".join(failures))
    print(f"every example builds ({len(targets)} files); the README's first prints what it says")


if __name__ == "__main__":
    main()
