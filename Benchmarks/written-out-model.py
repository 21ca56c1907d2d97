#!/usr/bin/env python3
"""A compile-time.sh model with its macros' expansion written out by hand, so that no macro runs:
what the expanded code costs the compiler by itself, the floor of any expansion as it stands.

    written-out-model.py KIND CLASSES PROPERTIES > Model.swift

KIND: annotated (what `@KeyValueObservable` expands to: `@Observed`'s accessors, storage the list
reads, and the list), annotated-observable (the same in a class declaring `Observable`), observable
(`@Observable`'s), minimal (what MinimalMacro/'s `@MinimalKVO` expands to).
The text is each macro's expansion as the golden tests pin it (ObservableMacrosTests; for
`@Observable`, `swiftc -Xfrontend -dump-macro-expansions` with this toolchain), local names renamed.
"""
import sys

kind, classes, properties = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])

ours_get = """        get {
            if ObservableCore.ObservationSlot.isTracking {
                _$P.access(self) {
                    (\\.P, chained: \\.?.P, stored: { $0._P })
                }
            }
            return _P
        }"""
ours_set = """        set {
            guard _$P.isObserved else {
                _P = newValue
                return
            }
            let change = _$P.willSet(self, _P) {
                \\.P
            }
            _P = newValue
            _$P.didSet(self, change, _P)
        }"""
ours_modify = """        _modify {
            let change = _$P.willSetIfObserved(self, _P) {
                \\.P
            }
            defer {
                _$P.didMutate(self, change, _P)
            }
            yield &_P
        }"""
reporting_accessors = """        get {
            _$P.access(self, reportingTo: _$observationRegistrar) {
                (\\.P, chained: \\.?.P, stored: { $0._P })
            }
            return _P
        }
        set {
            let change = _$P.willSet(self, _P, reportingTo: _$observationRegistrar) {
                \\.P
            }
            _P = newValue
            _$P.didSet(self, change, _P, reportingTo: _$observationRegistrar)
        }
        _modify {
            let change = _$P.willModify(self, _P, reportingTo: _$observationRegistrar) {
                \\.P
            }
            defer {
                _$P.didMutate(self, change, _P, reportingTo: _$observationRegistrar)
            }
            yield &_P
        }"""
observable_accessors = """        get {
            access(keyPath: \\.P)
            return _P
        }
        set {
            guard shouldNotifyObservers(_P, newValue) else {
                _P = newValue
                return
            }
            withMutation(keyPath: \\.P) {
                _P = newValue
            }
        }
        _modify {
            access(keyPath: \\.P)
            _$observationRegistrar.willSet(self, keyPath: \\.P)
            defer {
                _$observationRegistrar.didSet(self, keyPath: \\.P)
            }
            yield &_P
        }"""
minimal_accessors = """        get {
            _P
        }
        set {
            guard _$registry.isObserved else {
                _P = newValue
                return
            }
            let change = _$registry.willSet(self, \\.P, _P)
            _P = newValue
            _$registry.didSet(change, _P)
        }"""
init_accessor = """        @storageRestrictions(initializes: _P)
        init(initialValue) {
            _P = initialValue
        }"""
if kind == "annotated":
    accessors = "\n".join([ours_get, ours_set, ours_modify])
elif kind == "annotated-observable":
    accessors = reporting_accessors
elif kind == "observable":
    accessors = observable_accessors
elif kind == "minimal":
    accessors = minimal_accessors
else:
    sys.exit(f"unknown kind {kind}")
accessors = init_accessor + "\n" + accessors

registrar_members = """    private let _$observationRegistrar = Observation.ObservationRegistrar()

    internal nonisolated func access<Member>(keyPath: KeyPath<CLASS, Member>) {
        _$observationRegistrar.access(self, keyPath: keyPath)
    }

    internal nonisolated func withMutation<Member, MutationResult>(
        keyPath: KeyPath<CLASS, Member>, _ mutation: () throws -> MutationResult
    ) rethrows -> MutationResult {
        try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
    }
"""
should_notify = """
    private nonisolated func shouldNotifyObservers<Member>(_ lhs: Member, _ rhs: Member) -> Bool {
        true
    }

    private nonisolated func shouldNotifyObservers<Member: Equatable>(_ lhs: Member, _ rhs: Member) -> Bool {
        lhs != rhs
    }

    private nonisolated func shouldNotifyObservers<Member: AnyObject>(_ lhs: Member, _ rhs: Member) -> Bool {
        lhs !== rhs
    }

    private nonisolated func shouldNotifyObservers<Member: Equatable & AnyObject>(_ lhs: Member, _ rhs: Member) -> Bool {
        lhs != rhs
    }
"""
slot = ("    private let _$P: ObservableCore.ObservationSlot_ForCodableAddKeyValueObservableAndDeclareCodableOnTheClass"
        " = ObservableCore.ObservationSlot()")

list_member = """    public nonisolated static var _$observedProperties: ObservableCore.ObservedPropertyList {
        ObservableCore.ObservedPropertyList(
            CLASS.self, inheriting: nil,
            [
ENTRIES
            ]
        ) { object, slots in
SLOTS
        }
    }"""

out = []
if kind == "minimal":
    out.append("import Minimal")
if kind in ("annotated-observable", "observable"):
    out.append("import Observation")
if kind in ("annotated", "annotated-observable"):
    out.append("import ObservableCore")
for c in range(classes):
    name = f"Model{c}"
    conformance = ": Observation.Observable" if kind == "annotated-observable" else ""
    out.append(f"public final class {name}{conformance} {{")
    for p in range(properties):
        body = accessors.replace("_$P", f"_$p{p}").replace("_P", f"_p{p}").replace("\\.?.P", f"\\.?.p{p}") \
            .replace("\\.P", f"\\.p{p}")
        out.append(f"    public var p{p}: Int = {p} {{\n{body}\n    }}")
        if kind == "observable":
            out.append(f"    @ObservationIgnored private var _p{p}: Int = {p}")
    out.append("    public init() {}")
    if kind in ("annotated", "annotated-observable"):
        for p in range(properties):
            out.append(f"\n    private nonisolated(unsafe) var _p{p}: Int = {p}\n\n" + slot.replace("_$P", f"_$p{p}"))
    if kind in ("annotated-observable", "observable"):
        out.append(registrar_members.replace("CLASS", name))
    if kind == "observable":
        out.append(should_notify)
    elif kind == "minimal":
        out.extend(f"    private var _p{p}: Int = {p}" for p in range(properties))
        out.append("    private let _$registry = Minimal.MinimalRegistry()")
    else:
        entries = ",\n".join(f'                .init("p{p}", {{ (object: {name}) in object._p{p} }})' for p in range(properties))
        slots = "\n".join(f"            slots.append(object._$p{p})" for p in range(properties))
        out.append(list_member.replace("CLASS", name).replace("ENTRIES", entries).replace("SLOTS", slots))
    out.append("}")
    if kind == "observable":
        out.append(f"extension {name}: nonisolated Observation.Observable {{\n}}")
    elif kind == "minimal":
        out.append(f"extension {name}: Minimal.MinimalObservable {{\n}}")
    else:
        out.append(f"extension {name}: ObservableCore.KeyValueObservable, ObservableCore.ObservedPropertyListing {{\n}}")
print("\n".join(out))
