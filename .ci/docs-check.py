#!/usr/bin/env python3
"""Checks what `docc convert` does not: every public symbol of ObservableCore has a doc comment, the
landing page curates every top-level symbol, and each symbol's extension file in the catalogue
curates every member declared in this package.

Usage: docs-check.py SYMBOL_GRAPH_DIR CATALOGUE_DIR
"""
import glob
import json
import os
import re
import sys

graph_dir, catalogue = sys.argv[1], sys.argv[2]
symbols, relationships = {}, []
for path in glob.glob(os.path.join(graph_dir, "ObservableCore*.symbols.json")):
    graph = json.load(open(path))
    for symbol in graph["symbols"]:
        symbols[symbol["identifier"]["precise"]] = symbol
    relationships += graph["relationships"]
if not symbols:
    sys.exit(f"no ObservableCore symbol graph in {graph_dir}")


def ours(symbol):
    """Declared in this package's sources (not inherited from the standard library, not synthesised)."""
    return "/Sources/ObservableCore/" in symbol.get("location", {}).get("uri", "")


def name(symbol):
    return symbol["pathComponents"][-1]


member_kinds = {"memberOf", "requirementOf", "optionalRequirementOf"}
parent = {r["source"]: r["target"] for r in relationships if r["kind"] in member_kinds}
problems = []

for precise, symbol in symbols.items():
    if ours(symbol) and not symbol.get("docComment"):
        problems.append(f"no doc comment: {'.'.join(symbol['pathComponents'])}")


def links(path):
    return set(re.findall(r"``(?:ObservableCore/)?([^`]+)``", open(path).read()))


def check_curated(owner, path):
    """Every symbol of ours whose parent is `owner` (None: the top-level ones) is linked from `path`."""
    curated = links(path)
    for precise, symbol in symbols.items():
        if parent.get(precise) == owner and ours(symbol) and name(symbol) not in curated:
            problems.append(f"not curated in {path}: ``{name(symbol)}``")


check_curated(None, os.path.join(catalogue, "ObservableCore.md"))
for path in sorted(glob.glob(os.path.join(catalogue, "*.md"))):
    title = re.match(r"# ``ObservableCore/([^`]+)``", open(path).read())
    if not title:
        continue
    owner = [p for p, s in symbols.items() if p not in parent and name(s) == title.group(1)]
    if len(owner) != 1:
        problems.append(f"{path}: ``{title.group(1)}`` names no single top-level symbol")
    else:
        check_curated(owner[0], path)

for problem in problems:
    print(problem)
sys.stdout.flush()
if problems:
    sys.exit(f"{len(problems)} documentation problem(s)")
print(f"{len(symbols)} public symbols: documented; top-level ones and the curated types' members in topics")
