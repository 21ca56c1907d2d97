#!/usr/bin/env python3
"""Checks the runtime's structure (Design.md, "Rooms"): every file in a room folder, no file using a
file of a room later in ROOMS, and no cycle between files.

A file uses another when it names one of that file's top-level declarations, or accesses (`.name`)
a member that the other file's extensions add and no other file declares (comments and string
literals aside). Run from the repository root: `.ci/structure-check.py`.
"""
import glob, os, re, sys

ROOT = 'Sources/ObservableCore'
ROOMS = ['Platform', 'Change', 'Property', 'NestedPaths', 'Observing', 'Listing', 'StringKeyPaths', 'ObjectObservation',
         'Controller', 'Async', 'Interop', 'Editing', 'Patches', 'Debugging']

DECL = re.compile(
    r'^(?:@[\w(), :.*"=-]+\s+)*(?:(?:public|internal|private|fileprivate|open|final|indirect|nonisolated'
    r'|package)\s+)*(?:class|struct|enum|protocol|actor|typealias|func|let|var)\s+([A-Za-z_$][\w$]*)')
# A member declaration at any depth (for the extension members' uniqueness).
MEMBER = re.compile(
    r'^\s*(?:@[\w(), :.*"=-]+\s+)*(?:(?:public|internal|private|fileprivate|open|final|static|class|override'
    r'|mutating|nonmutating|nonisolated|package|dynamic|lazy|weak|unowned|indirect|convenience|required)'
    r'(?:\([\w ]+\))?\s+)*(?:func|let|var|case|subscript|typealias|struct|class|enum)\s+`?([A-Za-z_$][\w$]*)')


# Requirements of the standard library's protocols: a use of one may be any type's.
STANDARD_MEMBERS = {'description', 'debugDescription', 'customMirror', 'hash', 'hashValue', 'makeIterator', 'next',
                    'makeAsyncIterator', 'encode', 'rawValue'}


def extension_members(source):
    """Names declared one level inside the `extension` blocks of a stripped source."""
    names, depth, in_extension = set(), 0, []
    for line in source.splitlines():
        if depth == 0 and re.match(r'^(?:@[\w(), :.*"=-]+\s+)*(?:public |internal |private |fileprivate )?extension\b', line):
            in_extension.append(True)
        elif depth == 1 and in_extension and in_extension[-1]:
            match = MEMBER.match(line)
            if match:
                names.add(match.group(1))
        for char in line:
            if char == '{':
                depth += 1
            elif char == '}':
                depth -= 1
                if depth == 0 and in_extension:
                    in_extension.pop()
    return names


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
        if folder not in ROOMS:
            problems.append(f'{path}: not in a room folder ({", ".join(ROOMS)})')
            continue
        layer[path] = ROOMS.index(folder)
    declared = {}
    for path in files:
        for line in strip(open(path).read()).splitlines():
            match = DECL.match(line)
            if match:
                name = match.group(1)
                if name in declared and declared[name] != path:
                    problems.append(f'{path}: {name} is also declared at the top level of {declared[name]}')
                declared.setdefault(name, path)
    # Members an extension adds, by the one file that declares the name (a name declared as a member
    # in several files says nothing about which one a use means).
    members = {}
    for path in files:
        source = strip(open(path).read())
        for line in source.splitlines():
            match = MEMBER.match(line)
            if match:
                members.setdefault(match.group(1), set()).add(path)
    extended = {}
    for path in files:
        for name in extension_members(strip(open(path).read())):
            if members.get(name) == {path} and name not in declared and name not in STANDARD_MEMBERS:
                extended[name] = path
    uses = {}
    for path in files:
        source = strip(open(path).read())
        words = set(re.findall(r'[A-Za-z_$][\w$]*', source))
        uses[path] = {declared[w] for w in words if w in declared and declared[w] != path}
        accessed = set(re.findall(r'\.\s*([A-Za-z_$][\w$]*)', source))
        uses[path] |= {extended[w] for w in accessed if w in extended and extended[w] != path}
    for path in files:
        for used in sorted(uses[path]):
            if path in layer and used in layer and layer[used] > layer[path]:
                problems.append(f'{path} ({ROOMS[layer[path]]}) uses {used} ({ROOMS[layer[used]]}), a later room')
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
    print(f'structure check: {len(files)} files in {len(ROOMS)} rooms, dependencies one way')
    return 0


if __name__ == '__main__':
    sys.exit(main())
