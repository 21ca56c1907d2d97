#!/usr/bin/env python3
"""Checks the runtime's structure (Design.md, "The runtime's layers"): every file in a layer folder,
no file using a file of a higher layer, and no cycle between files.

A file uses another when it names one of that file's top-level declarations (comments and string
literals aside). Members added by an extension in another file are not seen: such an extension
belongs in the layer of its callers. Run from the repository root: `.ci/structure-check.py`.
"""
import glob, os, re, sys

ROOT = 'Sources/ObservableCore'
LAYERS = ['Platform', 'Values', 'Registry', 'Paths', 'Observations', 'SetPath', 'API']

DECL = re.compile(
    r'^(?:@[\w(), :.*"=-]+\s+)*(?:(?:public|internal|private|fileprivate|open|final|indirect|nonisolated'
    r'|package)\s+)*(?:class|struct|enum|protocol|actor|typealias|func|let|var)\s+([A-Za-z_$][\w$]*)')


def strip(source):
    source = re.sub(r'"""(?:.|\n)*?"""', '""', source)
    source = re.sub(r'//.*', '', source)
    source = re.sub(r'/\*(?:.|\n)*?\*/', '', source)
    # A string's interpolations are code: keep them (with one level of nested parentheses).
    interpolation = re.compile(r'\\\(((?:[^()]|\([^()]*\))*)\)')
    return re.sub(r'"(?:[^"\\\n]|\\.)*"',
                  lambda m: '"" ' + ' '.join(interpolation.findall(m.group(0))), source)


def main():
    files = sorted(glob.glob(ROOT + '/**/*.swift', recursive=True))
    problems = []
    layer = {}
    for path in files:
        folder = os.path.relpath(path, ROOT).split(os.sep)[0]
        if folder not in LAYERS:
            problems.append(f'{path}: not in a layer folder ({", ".join(LAYERS)})')
            continue
        layer[path] = LAYERS.index(folder)
    declared = {}
    for path in files:
        for line in strip(open(path).read()).splitlines():
            match = DECL.match(line)
            if match:
                name = match.group(1)
                if name in declared and declared[name] != path:
                    problems.append(f'{path}: {name} is also declared at the top level of {declared[name]}')
                declared.setdefault(name, path)
    uses = {}
    for path in files:
        words = set(re.findall(r'[A-Za-z_$][\w$]*', strip(open(path).read())))
        uses[path] = {declared[w] for w in words if w in declared and declared[w] != path}
    for path in files:
        for used in sorted(uses[path]):
            if path in layer and used in layer and layer[used] > layer[path]:
                problems.append(f'{path} ({LAYERS[layer[path]]}) uses {used} ({LAYERS[layer[used]]}), a higher layer')
    # Cycles: strongly connected components of more than one file.
    index, low, stack, on_stack, counter = {}, {}, [], set(), [0]
    components = []

    def visit(node):
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for successor in uses[node]:
            if successor not in index:
                visit(successor)
                low[node] = min(low[node], low[successor])
            elif successor in on_stack:
                low[node] = min(low[node], index[successor])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    sys.setrecursionlimit(10000)
    for path in files:
        if path not in index:
            visit(path)
    for component in components:
        problems.append('files that depend on each other: ' + ', '.join(component))
    for problem in problems:
        print(problem)
    if problems:
        print(f'structure check: {len(problems)} problem(s)')
        return 1
    print(f'structure check: {len(files)} files in {len(LAYERS)} layers, dependencies one way')
    return 0


if __name__ == '__main__':
    sys.exit(main())
