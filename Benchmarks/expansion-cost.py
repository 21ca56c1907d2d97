#!/usr/bin/env python3
"""What an addition to `@Observed`'s expansion would cost the compiler, counted in instructions.

    expansion-cost.py [--classes N] [--properties M] VARIANT...

Each variant is the written-out model (`written-out-model.py annotated`) with one addition to every
property or class, compiled by one `swift-frontend -c` job (debug, as SwiftPM builds a model) under
callgrind. Needs a debug build of the package (`swift build`) for the ObservableCore module.

The counts mostly repeat from job to job, but not always: one invocation counted the same 3 × 3
base model 583,147,759 and then 779,253,610 instructions, and 10 × 10 models counted about 5.4
billion in three jobs and 3.4 billion in two. Give each variant more than once, interleaved
(`base no-reader base no-reader`), and compare only figures that repeat. Variants:
  base           the expansion as it is (its getters hand over a storage reader, `{ $0._name }`)
  no-reader      the getters without the storage reader, as they were before
  storage-kp     the getter's access closure also returns the storage's key path (`\\._name`)
  storage-inout  the getter passes the storage inout (`&_name`) to learn its address
  storage-reader the getter's access closure also returns a reader closure (`{ $0._name }`)
  table-array    a static array per class of (name, key path) entries
  table-switch   a static array of names per class, and a function returning each key path by index
  table-reader   table-array whose entries also carry a reader closure of the storage (`{ $0._name }`)
  no-list        the expansion without the list `@KeyValueObservable` writes (`_$observedProperties`)
  list-no-slots  the list without its closure appending the slots
  list-names     the list's entries without their storage readers (names only)
  list-switch    the list as names and one closure per class reading a property by index (a switch)
  no-tracking    the getters without their `isTracking` test and access call (a getter returns its storage)
  no-modify      the properties without `_modify` (Swift then mutates in place through get and set)
  no-setter-keypath  `willSet` and `willSetIfObserved` without their key-path closure (`{ \\.name }`)
  eager-keypaths the getters' access call given its key paths and reader as arguments, not in a closure
  observable     not a variant: `@Observable`'s expansion written out (`written-out-model.py observable`)
  minimal        not a variant: MinimalMacro's expansion written out, the least a macro of our shape writes
The additions call stand-ins declared in the model, not the runtime.
"""
import argparse, os, re, subprocess, sys, tempfile

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)

STAND_INS = """
protocol StandInVisitor { mutating func visit<V>(_ value: V) }
extension ObservableCore.ObservedPropertyList {
    init<Root: AnyObject>(_ type: Root.Type, inheriting: ObservableCore.ObservedPropertyList?, names: [String],
        read: @escaping (Root, Int, inout any StandInVisitor) -> Void,
        slots: @escaping (Root, inout ObservableCore.ObservedPropertyList.SlotOffsets) -> Void) {
        self.init(type, inheriting: inheriting, [], slots: slots)
    }
}
extension ObservableCore.ObservedPropertyList.Entry {
    init(_ name: String) { self.init(name, overriding: Int.self, []) }
}
struct PropertyEntry {
    init<Root: AnyObject, Value>(_ name: String, _ keyPath: KeyPath<Root, Value>, _ flags: Int) {}
    init<Root: AnyObject, Value>(
        _ name: String, _ keyPath: KeyPath<Root, Value>, _ flags: Int, storage: @escaping (Root) -> Value) {}
}
extension ObservableCore.ObservationSlot {
    func accessWithKeyPath<O: AnyObject, V>(
        _ o: O, _ k: () -> (KeyPath<O, V>, chained: KeyPath<O?, V?>, storage: KeyPath<O, V>)) {}
    func accessWithInout<O: AnyObject, V>(
        _ o: O, _ storage: inout V, _ k: () -> (KeyPath<O, V>, chained: KeyPath<O?, V?>)) {}
    func accessWithReader<O: AnyObject, V>(
        _ o: O, _ k: () -> (KeyPath<O, V>, chained: KeyPath<O?, V?>, storage: (O) -> V)) {}
    func accessEager<O: AnyObject, V>(_ o: O, _ k: KeyPath<O, V>, chained: KeyPath<O?, V?>, stored: (O) -> V) {}
    func willSetWithoutKeyPath<O: AnyObject, V>(_ o: O, _ old: V) -> ObservableCore.ObservationSlot.PendingChange<V>? {
        nil
    }
    func willSetIfObservedWithoutKeyPath<O: AnyObject, V>(
        _ o: O, _ old: V) -> ObservableCore.ObservationSlot.PendingChange<V>? { nil }
}
"""
ACCESS = re.compile(
    r"_\$(p\d+)\.access\(self\) \{\n(\s*)\(\\\.p\d+, chained: \\\.\?\.p\d+, stored: \{ \$0\._p\d+ \}\)")


def model(variant, classes, properties):
    if variant in ("observable", "minimal"):
        return subprocess.run(
            [sys.executable, os.path.join(here, "written-out-model.py"), variant, str(classes), str(properties)],
            stdout=subprocess.PIPE, text=True, check=True).stdout
    text = subprocess.run(
        [sys.executable, os.path.join(here, "written-out-model.py"), "annotated", str(classes), str(properties)],
        stdout=subprocess.PIPE, text=True, check=True).stdout + STAND_INS
    closing = {
        "no-reader": lambda p, i: f"_${p}.access(self) {{\n{i}(\\.{p}, chained: \\.?.{p})",
        "storage-kp": lambda p, i: f"_${p}.accessWithKeyPath(self) {{\n{i}(\\.{p}, chained: \\.?.{p}, storage: \\._{p})",
        "storage-inout": lambda p, i: f"_${p}.accessWithInout(self, &_{p}) {{\n{i}(\\.{p}, chained: \\.?.{p})",
        "storage-reader": lambda p, i: f"_${p}.accessWithReader(self) {{\n{i}(\\.{p}, chained: \\.?.{p}, storage: {{ $0._{p} }})",
    }
    if variant in closing:
        return ACCESS.sub(lambda m: closing[variant](m.group(1), m.group(2)), text)
    if variant == "eager-keypaths":
        return re.sub(r"(_\$p\d+\.access)\(self\) \{\n\s*\((\\\.p\d+), chained: (\\\.\?\.p\d+), stored: (\{ \$0\._p\d+ \})\)\n\s*\}",
                      r"\1Eager(self, \2, chained: \3, stored: \4)", text)
    if variant == "no-tracking":
        return re.sub(r"            if ObservableCore\.ObservationSlot\.isTracking \{\n.*?\n            \}\n", "", text, flags=re.S)
    if variant == "no-modify":
        return re.sub(r"        _modify \{\n.*?\n        \}\n", "", text, flags=re.S)
    if variant == "no-setter-keypath":
        text = re.sub(r"\.willSet\(self, (_p\d+)\) \{\n\s*\\\.p\d+\n\s*\}", r".willSetWithoutKeyPath(self, \1)", text)
        return re.sub(r"\.willSetIfObserved\(self, (_p\d+)\) \{\n\s*\\\.p\d+\n\s*\}",
                      r".willSetIfObservedWithoutKeyPath(self, \1)", text)
    if variant == "list-no-slots":
        return re.sub(r"\) \{ object, slots in\n.*?\n        \}\n", ") { _, _ in }\n", text, flags=re.S)
    if variant == "list-names":
        return re.sub(r'\.init\("(p\d+)", \{ \(object: Model\d+\) in object\._p\d+ \}\)', r'.init("\1")', text)
    if variant == "list-switch":
        def switch(m):
            cls, props = m.group(1), re.findall(r'\.init\("(p\d+)"', m.group(2))
            cases = "\n".join(f"                case {i}: visitor.visit(object._{p})" for i, p in enumerate(props))
            names = ", ".join(f'"{p}"' for p in props)
            return (f"ObservableCore.ObservedPropertyList(\n            {cls}.self, inheriting: nil, names: [{names}],\n"
                    f"            read: {{ (object: {cls}, index: Int, visitor: inout any StandInVisitor) in\n"
                    f"                switch index {{\n{cases}\n                default: break\n                }}\n"
                    f"            }},\n            slots: {{ object, slots in\n"
                    + "\n".join(f"                slots.append(object._${p})" for p in props)
                    + "\n            })\n")
        return re.sub(r"ObservableCore\.ObservedPropertyList\(\n\s*(Model\d+)\.self, inheriting: nil,\n(.*?)\n        \}\n",
                      switch, text, flags=re.S)
    if variant == "no-list":
        text = re.sub(r"    public nonisolated static var _\$observedProperties.*?\n    }\n", "", text, flags=re.S)
        return text.replace(", ObservableCore.ObservedPropertyListing {", " {")
    if variant not in ("base", "table-array", "table-switch", "table-reader"):
        sys.exit(f"unknown variant {variant}")
    out, name = [], None
    for line in text.split("\n"):
        found = re.match(r"public final class (Model\d+)", line)
        if found:
            name = found.group(1)
        if line == "    public init() {}" and variant in ("table-array", "table-reader"):
            reader = (lambda p: f", storage: {{ $0._p{p} }}") if variant == "table-reader" else (lambda p: "")
            entries = ",\n".join(f'        PropertyEntry("p{p}", \\{name}.p{p}, 0{reader(p)})' for p in range(properties))
            out.append(f"    nonisolated static let _$properties: [PropertyEntry] = [\n{entries}\n    ]")
        elif line == "    public init() {}" and variant == "table-switch":
            names = ", ".join(f'"p{p}"' for p in range(properties))
            cases = "\n".join(f"        case {p}: \\{name}.p{p}" for p in range(properties))
            out.append(f"    nonisolated static let _$names: [String] = [{names}]")
            out.append(f"    nonisolated static func _$keyPath(_ index: Int) -> AnyKeyPath {{\n"
                       f"        switch index {{\n{cases}\n        default: \\{name}.self\n        }}\n    }}")
        out.append(line)
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--classes", type=int, default=10)
    parser.add_argument("--properties", type=int, default=10)
    parser.add_argument("variants", nargs="+")
    args = parser.parse_args()
    swift = os.path.realpath(subprocess.run(["which", "swift"], stdout=subprocess.PIPE, text=True).stdout.strip())
    toolchain = os.path.dirname(os.path.dirname(swift))
    lib = os.path.join(toolchain, "lib", "swift")
    modules = os.path.join(root, ".build", "debug", "Modules")
    env = dict(os.environ, LD_LIBRARY_PATH=":".join(
        [os.path.join(lib, "linux"), os.path.join(lib, "host", "compiler"), os.path.join(lib, "host"),
         os.path.join(toolchain, "lib")]))
    with tempfile.TemporaryDirectory() as scratch:
        # valgrind cannot read the frontend's DWARF 5; its symbols are enough.
        # Laid out as the toolchain is, so that it finds its plugin server and libraries.
        os.makedirs(os.path.join(scratch, "bin"))
        os.symlink(os.path.join(toolchain, "lib"), os.path.join(scratch, "lib"))
        os.symlink(os.path.join(toolchain, "bin", "swift-plugin-server"), os.path.join(scratch, "bin", "swift-plugin-server"))
        frontend = os.path.join(scratch, "bin", "swift-frontend")
        subprocess.run(["objcopy", "--strip-debug", os.path.join(toolchain, "bin", "swift-frontend"), frontend],
                       check=True)
        if "minimal" in args.variants:
            # Its runtime module, which the written-out expansion imports.
            subprocess.run(
                ["swiftc", "-emit-module", "-module-name", "Minimal", "-parse-as-library", "-swift-version", "6",
                 "-emit-module-path", os.path.join(scratch, "Minimal.swiftmodule"),
                 os.path.join(here, "MinimalMacro", "Sources", "Minimal", "Minimal.swift")],
                cwd=here, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        base = None
        for variant in args.variants:
            source = os.path.join(scratch, "Model.swift")
            with open(source, "w") as out:
                out.write(model(variant, args.classes, args.properties))
            run = subprocess.run(
                ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + os.path.join(scratch, "cg.out"),
                 frontend, "-frontend", "-c", "-primary-file", source, "-module-name", "Model", "-I", modules, "-I", scratch,
                 "-plugin-path", os.path.join(lib, "host", "plugins"),
                 "-resource-dir", lib, "-parse-as-library", "-swift-version", "6", "-Onone",
                 "-o", os.path.join(scratch, "Model.o")],
                env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            counted = re.search(r"Collected : (\d+)", run.stderr)
            if run.returncode != 0 or not counted or " error: " in run.stderr:
                sys.exit(f"{variant}: the frontend failed\n{run.stderr[-2000:]}")
            instructions = int(counted.group(1))
            base = base or instructions
            print(f"{variant}\t{instructions}\t{instructions / base:.3f}", flush=True)


main()
