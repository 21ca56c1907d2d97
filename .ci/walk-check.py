#!/usr/bin/env python3
"""Keeps Design.md's walks true: traces each walk and compares the files it runs code of with the list.

`Benchmarks --walk` runs each walk once inside a function of its own (`Benchmarks/Sources/Benchmarks/
Walks.swift`); callgrind records, line by line, what that function executes, inlined code included
(a debug build with DWARF 4, which valgrind 3.19 reads, for the C targets too). The files of Sources/ObservableCore with a line
executed are the walk; each Design.md section below lists its files (`Room/File.swift`, in call
order; a walk may be listed as the files of one section and those another adds). The check fails
when a walk's sections name a file it does not run, or it runs a file they do not name.

usage: .ci/walk-check.py [--binary PATH]   (default: builds Benchmarks in .build-walks first)
"""
import argparse, os, re, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WALKS = {  # traced function: the Design.md sections whose lists, together, are its files
    "observableCoreWalkSet": ["## A set with one observer"],
    "observableCoreWalkLaterNestedRegistration": ["## Registering `\\.address?.city`"],
    "observableCoreWalkNestedRegistration": [
        "## Registering `\\.address?.city`", "## The first registration of a path on a class"],
}
SOURCES = "Sources/ObservableCore/"


def build():
    scratch = os.path.join(ROOT, "Benchmarks/.build-walks")
    subprocess.run(
        ["swift", "build", "--package-path", os.path.join(ROOT, "Benchmarks"), "--scratch-path", scratch,
         "--product", "Benchmarks", "-Xswiftc", "-g", "-Xswiftc", "-dwarf-version=4", "-Xcc", "-gdwarf-4",
         "-Xcxx", "-gdwarf-4"], check=True)
    return os.path.join(scratch, "debug/Benchmarks")


def traced_files(binary, function):
    """The files of Sources/ObservableCore that `function` executes a line of, with what it executes."""
    symbols = subprocess.run(["nm", binary], check=True, stdout=subprocess.PIPE, text=True).stdout
    # The function itself: the shortest symbol naming it (closures inside it are longer).
    symbol = min((line.split()[-1] for line in symbols.splitlines() if function in line), key=len, default=None)
    if symbol is None:
        sys.exit(f"the benchmarks have no {function} symbol")
    with tempfile.TemporaryDirectory() as scratch:
        out = os.path.join(scratch, "callgrind.out")
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out, "--collect-atstart=no",
             "--toggle-collect=" + symbol, binary, "--walk"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if run.returncode != 0 or "walks\tset heard 2\tpath active true" not in run.stdout:
            sys.exit(f"the walks failed under callgrind:\n{run.stdout}\n{run.stderr}")
        return files_with_cost(out)


def files_with_cost(path):
    """Parses a callgrind profile: the source files to which an executed instruction is attributed."""
    names, files = {}, {}
    current = inline = None
    skip_next = False

    def name(value):
        match = re.match(r"\((\d+)\)(?: (.*))?", value)
        if not match:
            return value
        if match.group(2):
            names[match.group(1)] = match.group(2)
        return names.get(match.group(1))

    for line in open(path):
        line = line.rstrip("\n")
        if line.startswith(("cfl=", "cfi=")):
            name(line[4:])  # a called function's file: it may define a name later lines refer to
        elif line.startswith("fl="):
            current, inline = name(line[3:]), None
        elif line.startswith(("fi=", "fe=")):
            inline = name(line[3:])
        elif line.startswith("fn="):
            inline = None
        elif line.startswith("calls="):
            skip_next = True  # the next line is the call's inclusive cost, at the caller's line
        elif line[:1].isdigit() or line[:1] in "+-*":
            if skip_next:
                skip_next = False
                continue
            costs = line.split()[1:]
            if costs and int(costs[0]) > 0:
                file = inline or current
                files[file] = files.get(file, 0) + int(costs[0])
    return {
        file[file.index(SOURCES) + len(SOURCES):]: cost for file, cost in files.items() if file and SOURCES in file}


def listed_files(section):
    """The `Room/File.swift` names of a Design.md section's numbered list, in order."""
    text = open(os.path.join(ROOT, "Design.md")).read()
    start = text.index(section + "\n")
    end = text.find("\n## ", start + 1)
    body = text[start:end if end >= 0 else len(text)]
    found = []
    for item in re.findall(r"^\d+\. (.*(?:\n   .*)*)", body, re.M):
        for file in re.findall(r"`(\w+/[\w+]+\.swift)`", item):
            if file not in found:
                found.append(file)
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", help="a debug build of Benchmarks with DWARF 4 (default: build one)")
    arguments = parser.parse_args()
    binary = arguments.binary or build()
    failed = False
    for function, sections in WALKS.items():
        traced = traced_files(binary, function)
        listed = [file for section in sections for file in listed_files(section)]
        listed = [file for index, file in enumerate(listed) if file not in listed[:index]]
        print(f"{sections[-1][3:]}: {len(traced)} files traced, {len(listed)} listed")
        for file in sorted(traced, key=lambda f: (f not in listed, listed.index(f) if f in listed else 0, f)):
            print(f"  {'listed' if file in listed else 'NOT LISTED'}  {file}  ({traced[file]} instructions)")
        for file in listed:
            if file not in traced:
                print(f"  LISTED, NOT RUN  {file}")
        failed |= set(traced) != set(listed)
    if failed:
        sys.exit("Design.md's walks differ from what the walks run (above): correct the lists")
    print("Design.md's walks are what the walks run")


if __name__ == "__main__":
    main()
