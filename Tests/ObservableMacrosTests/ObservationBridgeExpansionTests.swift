import SwiftSyntaxMacrosGenericTestSupport
import Testing

@Suite("@Observed reporting to Observation")
struct ObservationBridgeExpansionTests {
    @Test("in a class declaring Observable, the accessors report to a registrar of the property's own")
    func propertyRegistrar() {
        assertObservedExpansion(
            """
            final class Prefs: KeyValueObservable, Observable {
                @Observed var volume = 3
            }
            """,
            expandedSource: #"""
                final class Prefs: KeyValueObservable, Observable {
                    var volume {
                        @storageRestrictions(initializes: _volume)
                        init(initialValue) {
                            _volume = initialValue
                        }
                        get {
                            _$observationRegistrar_volume.access(self, keyPath: \.volume)
                            if ObservableCore.ObservationSlot.isTracking {
                                _$volume.access(self) {
                                    (\.volume, chained: \.?.volume, stored: { $0._volume })
                                }
                            }
                            return _volume
                        }
                        set {
                            guard _$volume.isObserved else {
                                _$observationRegistrar_volume.withMutation(of: self, keyPath: \.volume) {
                                    _volume = newValue
                                }
                                return
                            }
                            _$observationRegistrar_volume.willSet(self, keyPath: \.volume)
                            defer {
                                _$observationRegistrar_volume.didSet(self, keyPath: \.volume)
                            }
                            let __macro_local_6changefMu_ = _$volume.willSet(self, _volume) {
                                \.volume
                            }
                            _volume = newValue
                            _$volume.didSet(self, __macro_local_6changefMu_, _volume)
                        }
                        _modify {
                            _$observationRegistrar_volume.access(self, keyPath: \.volume)
                            _$observationRegistrar_volume.willSet(self, keyPath: \.volume)
                            defer {
                                _$observationRegistrar_volume.didSet(self, keyPath: \.volume)
                            }
                            guard _$volume.isObserved else {
                                yield &_volume
                                return
                            }
                            let __macro_local_6changefMu_ = _$volume.willSet(self, _volume) {
                                \.volume
                            }
                            defer {
                                _$volume.didMutate(self, __macro_local_6changefMu_, _volume)
                            }
                            yield &_volume
                        }
                    }

                    private var _volume = 3

                    private let _$volume: ObservableCore.ObservationSlot_ForCodableAddKeyValueObservableAndDeclareCodableOnTheClass = ObservableCore.ObservationSlot()

                    private let _$observationRegistrar_volume = Observation.ObservationRegistrar()
                }
                """#
        )
    }

    @Test(
        "with @KeyValueObservable, to one registrar the class attribute adds, through access(keyPath:) and withMutation(keyPath:_:) as @Observable"
    )
    func classRegistrar() {
        assertObservedExpansion(
            """
            @KeyValueObservable
            final class Prefs: Observation.Observable {
                @Observed(notifiesAutomatically: false) var volume = 3
            }
            """,
            expandedSource: #"""
                final class Prefs: Observation.Observable {
                    var volume {
                        @storageRestrictions(initializes: _volume)
                        init(initialValue) {
                            _volume = initialValue
                        }
                        get {
                            access(keyPath: \.volume)
                            if ObservableCore.ObservationSlot.isTracking {
                                _$volume.access(self) {
                                    (\.volume, chained: \.?.volume, stored: { $0._volume })
                                }
                            }
                            return _volume
                        }
                        set {
                            _$observationRegistrar.willSet(self, keyPath: \.volume)
                            defer {
                                _$observationRegistrar.didSet(self, keyPath: \.volume)
                            }
                            _volume = newValue
                        }
                        _modify {
                            access(keyPath: \.volume)
                            _$observationRegistrar.willSet(self, keyPath: \.volume)
                            defer {
                                _$observationRegistrar.didSet(self, keyPath: \.volume)
                            }
                            yield &_volume
                        }
                    }

                    private nonisolated(unsafe) var _volume = 3

                    private let _$volume: ObservableCore.ObservationSlot_ForCodableAddKeyValueObservableAndDeclareCodableOnTheClass = ObservableCore.ObservationSlot()

                    private let _$observationRegistrar = Observation.ObservationRegistrar()

                    internal nonisolated func access<__macro_local_6MemberfMu_>(keyPath: KeyPath<Prefs, __macro_local_6MemberfMu_>) {
                        _$observationRegistrar.access(self, keyPath: keyPath)
                    }

                    internal nonisolated func withMutation<__macro_local_6MemberfMu0_, __macro_local_14MutationResultfMu_>(
                        keyPath: KeyPath<Prefs, __macro_local_6MemberfMu0_>, _ mutation: () throws -> __macro_local_14MutationResultfMu_
                    ) rethrows -> __macro_local_14MutationResultfMu_ {
                        try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
                    }

                    nonisolated static var _$observedProperties: ObservableCore.ObservedPropertyList {
                        ObservableCore.ObservedPropertyList(
                            Prefs.self, inheriting: nil,
                            [
                                .init("volume", { (object: Prefs) in object._volume })
                            ]
                        ) { object, slots in
                            slots.append(object._$volume)
                        }
                    }
                }

                extension Prefs: ObservableCore.KeyValueObservable, ObservableCore.ObservedPropertyListing {
                }
                """#
        )
    }

    @Test(
        "with the class attribute and the macro's access(keyPath:) and withMutation(keyPath:_:), the slot is given the registrar"
    )
    func slotGivenRegistrar() {
        assertObservedExpansion(
            """
            @KeyValueObservable
            final class Prefs: Observable {
                var volume = 3
                weak var owner: Prefs?
            }
            """,
            expandedSource: #"""
                final class Prefs: Observable {
                    var volume {
                        @storageRestrictions(initializes: _volume)
                        init(initialValue) {
                            _volume = initialValue
                        }
                        get {
                            _$volume.access(self, reportingTo: _$observationRegistrar) {
                                (\.volume, chained: \.?.volume, stored: { $0._volume })
                            }
                            return _volume
                        }
                        set {
                            let __macro_local_6changefMu_ = _$volume.willSet(self, _volume, reportingTo: _$observationRegistrar) {
                                \.volume
                            }
                            _volume = newValue
                            _$volume.didSet(self, __macro_local_6changefMu_, _volume, reportingTo: _$observationRegistrar)
                        }
                        _modify {
                            let __macro_local_6changefMu_ = _$volume.willModify(self, _volume, reportingTo: _$observationRegistrar) {
                                \.volume
                            }
                            defer {
                                _$volume.didMutate(self, __macro_local_6changefMu_, _volume, reportingTo: _$observationRegistrar)
                            }
                            yield &_volume
                        }
                    }
                    weak var owner: Prefs? {
                        @storageRestrictions(initializes: _owner)
                        init(initialValue) {
                            _owner = initialValue
                        }
                        get {
                            _$owner.access(self, reportingTo: _$observationRegistrar) {
                                (\.owner, chained: \.?.owner, stored: { $0._owner })
                            }
                            return _owner
                        }
                        set {
                            let __macro_local_6changefMu0_ = _$owner.willSet(self, _owner, reportingTo: _$observationRegistrar) {
                                \.owner
                            }
                            _owner = newValue
                            _$owner.didSet(self, __macro_local_6changefMu0_, _owner, reportingTo: _$observationRegistrar)
                        }
                        _modify {
                            let __macro_local_6changefMu0_ = _$owner.willModify(self, _owner, reportingTo: _$observationRegistrar) {
                                \.owner
                            }
                            defer {
                                _$owner.didMutate(self, __macro_local_6changefMu0_, _owner, reportingTo: _$observationRegistrar)
                            }
                            yield &_owner
                        }
                    }

                    private nonisolated(unsafe) var _volume = 3

                    private let _$volume: ObservableCore.ObservationSlot_ForCodableAddKeyValueObservableAndDeclareCodableOnTheClass = ObservableCore.ObservationSlot()

                    private nonisolated(unsafe) weak var _owner: Prefs?

                    private let _$owner: ObservableCore.ObservationSlot_ForCodableAddKeyValueObservableAndDeclareCodableOnTheClass = ObservableCore.ObservationSlot()

                    private let _$observationRegistrar = Observation.ObservationRegistrar()

                    internal nonisolated func access<__macro_local_6MemberfMu_>(keyPath: KeyPath<Prefs, __macro_local_6MemberfMu_>) {
                        _$observationRegistrar.access(self, keyPath: keyPath)
                    }

                    internal nonisolated func withMutation<__macro_local_6MemberfMu0_, __macro_local_14MutationResultfMu_>(
                        keyPath: KeyPath<Prefs, __macro_local_6MemberfMu0_>, _ mutation: () throws -> __macro_local_14MutationResultfMu_
                    ) rethrows -> __macro_local_14MutationResultfMu_ {
                        try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
                    }

                    nonisolated static var _$observedProperties: ObservableCore.ObservedPropertyList {
                        ObservableCore.ObservedPropertyList(
                            Prefs.self, inheriting: nil,
                            [
                                .init("volume", { (object: Prefs) in object._volume }),
                                .init("owner", { (object: Prefs) in object._owner }, [.weak])
                            ]
                        ) { object, slots in
                            slots.append(object._$volume)
                            slots.append(object._$owner)
                        }
                    }
                }

                extension Prefs: ObservableCore.KeyValueObservable, ObservableCore.ObservedPropertyListing {
                }
                """#
        )
    }

    @Test("a class writing access(keyPath:) or withMutation(keyPath:_:) itself keeps it, and the accessors call it")
    func ownAccessAndMutation() {
        assertObservedExpansion(
            """
            @KeyValueObservable
            final class Prefs: Observable {
                @Unobserved var calls = 0
                var volume = 3
                func access<Member>(keyPath: KeyPath<Prefs, Member>) {
                    _$observationRegistrar.access(self, keyPath: keyPath)
                }
            }
            """,
            expandedSource: #"""
                final class Prefs: Observable {
                    var calls = 0
                    var volume {
                        @storageRestrictions(initializes: _volume)
                        init(initialValue) {
                            _volume = initialValue
                        }
                        get {
                            access(keyPath: \.volume)
                            if ObservableCore.ObservationSlot.isTracking {
                                _$volume.access(self) {
                                    (\.volume, chained: \.?.volume, stored: { $0._volume })
                                }
                            }
                            return _volume
                        }
                        set {
                            guard _$volume.isObserved else {
                                withMutation(keyPath: \.volume) {
                                    _volume = newValue
                                }
                                return
                            }
                            _$observationRegistrar.willSet(self, keyPath: \.volume)
                            defer {
                                _$observationRegistrar.didSet(self, keyPath: \.volume)
                            }
                            let __macro_local_6changefMu_ = _$volume.willSet(self, _volume) {
                                \.volume
                            }
                            _volume = newValue
                            _$volume.didSet(self, __macro_local_6changefMu_, _volume)
                        }
                        _modify {
                            access(keyPath: \.volume)
                            _$observationRegistrar.willSet(self, keyPath: \.volume)
                            defer {
                                _$observationRegistrar.didSet(self, keyPath: \.volume)
                            }
                            guard _$volume.isObserved else {
                                yield &_volume
                                return
                            }
                            let __macro_local_6changefMu_ = _$volume.willSet(self, _volume) {
                                \.volume
                            }
                            defer {
                                _$volume.didMutate(self, __macro_local_6changefMu_, _volume)
                            }
                            yield &_volume
                        }
                    }
                    func access<Member>(keyPath: KeyPath<Prefs, Member>) {
                        _$observationRegistrar.access(self, keyPath: keyPath)
                    }

                    private nonisolated(unsafe) var _volume = 3

                    private let _$volume: ObservableCore.ObservationSlot_ForCodableAddKeyValueObservableAndDeclareCodableOnTheClass = ObservableCore.ObservationSlot()

                    private let _$observationRegistrar = Observation.ObservationRegistrar()

                    internal nonisolated func withMutation<__macro_local_6MemberfMu_, __macro_local_14MutationResultfMu_>(
                        keyPath: KeyPath<Prefs, __macro_local_6MemberfMu_>, _ mutation: () throws -> __macro_local_14MutationResultfMu_
                    ) rethrows -> __macro_local_14MutationResultfMu_ {
                        try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
                    }

                    nonisolated static var _$observedProperties: ObservableCore.ObservedPropertyList {
                        ObservableCore.ObservedPropertyList(
                            Prefs.self, inheriting: nil,
                            [
                                .init("volume", { (object: Prefs) in object._volume })
                            ]
                        ) { object, slots in
                            slots.append(object._$volume)
                        }
                    }
                }

                extension Prefs: ObservableCore.KeyValueObservable, ObservableCore.ObservedPropertyListing {
                }
                """#
        )
    }

    @Test(
        "a class that may be Observable unseen (a subclass, a protocol of its own) gets the registrar its conformances choose"
    )
    func registrarChosenByConformance() {
        for inheritance in ["Entity", "Sendable, Document", "Equatable, Swift.Identifiable, Document"] {
            assertObservedExpansion(
                """
                @KeyValueObservable
                final class Person: \(inheritance) {
                    @Unobserved var cache = 0
                }
                """,
                expandedSource: """
                    final class Person: \(inheritance) {
                        var cache = 0

                        private let _$observationRegistrar = ObservableCore._$chooseObservationRegistrar(for: Person.self)

                        nonisolated static var _$observedProperties: ObservableCore.ObservedPropertyList {
                            ObservableCore.ObservedPropertyList(
                                Person.self, inheriting: nil,
                                []
                            ) { _, _ in }
                        }
                    }

                    extension Person: ObservableCore.KeyValueObservable, ObservableCore.ObservedPropertyListing {
                    }
                    """
            )
        }
        // Only protocols known not to be Observable: no registrar at all.
        assertObservedExpansion(
            """
            @KeyValueObservable
            final class Person: Hashable, Sendable {
                @Unobserved var cache = 0
            }
            """,
            expandedSource: """
                final class Person: Hashable, Sendable {
                    var cache = 0

                    nonisolated static var _$observedProperties: ObservableCore.ObservedPropertyList {
                        ObservableCore.ObservedPropertyList(
                            Person.self, inheriting: nil,
                            []
                        ) { _, _ in }
                    }
                }

                extension Person: ObservableCore.KeyValueObservable, ObservableCore.ObservedPropertyListing {
                }
                """
        )
    }

    @Test("@Observed in an @Observable class: one error, on the storage @Observable writes, with the remedy")
    func observableMacro() {
        // The property is left to `@Observable`, whose `@ObservationTracked` gives it accessors…
        assertObservedExpansion(
            """
            @Observable
            final class Prefs: KeyValueObservable {
                @Observed var volume = 3
            }
            """,
            expandedSource: """
                @Observable
                final class Prefs: KeyValueObservable {
                    var volume = 3
                }
                """
        )
        // …and writes its storage with a copy of the attribute, outside the class: the error is there
        // (the compiler adds "expanded code originates here" at the property; Tests/CompileChecks).
        assertObservedExpansion(
            """
            @Observed
            @ObservationIgnored
            private  var _volume  = 3
            """,
            expandedSource: """
                @ObservationIgnored
                private  var _volume  = 3
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "'@Observed' cannot be used in an '@Observable' class: both macros make the property computed; remove '@Observable' and declare the conformance instead (': Observable'), which '@Observed' then reports to as '@Observable' would",
                    line: 1, column: 1)
            ]
        )
        // A property `@Observable` does not track gets no copy: it is reported itself.
        assertObservedExpansion(
            """
            @Observable
            final class Prefs: KeyValueObservable {
                @Observed let volume = 3
            }
            """,
            expandedSource: """
                @Observable
                final class Prefs: KeyValueObservable {
                    let volume = 3
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "'@Observed' cannot be used in an '@Observable' class: both macros make the property computed; remove '@Observable' and declare the conformance instead (': Observable'), which '@Observed' then reports to as '@Observable' would",
                    line: 3, column: 5),
                DiagnosticSpec(
                    message: "'@Observed' cannot be applied to a 'let' constant", line: 3, column: 15,
                    fixIts: [FixItSpec(message: "Replace 'let' with 'var'")]),
            ]
        )
    }

    @Test("@ObservationTracked or @ObservationIgnored beside @Observed is an error on that attribute")
    func observationAttributes() {
        for name in ["ObservationTracked", "ObservationIgnored"] {
            assertObservedExpansion(
                """
                final class Prefs: KeyValueObservable, Observable {
                    @Observed @\(name) var volume = 3
                }
                """,
                expandedSource: """
                    final class Prefs: KeyValueObservable, Observable {
                        @\(name) var volume = 3
                    }
                    """,
                diagnostics: [
                    DiagnosticSpec(
                        message:
                            "'@Observed' cannot be combined with '@\(name)', which belongs to '@Observable'; in a class declaring 'Observable', '@Observed' reports to Observation itself",
                        line: 2, column: 15)
                ]
            )
        }
    }

    @Test("@KeyValueObservable with @Observable is one error on the class attribute, and marks nothing")
    func classAttributeWithObservableMacro() {
        assertObservedExpansion(
            """
            @KeyValueObservable @Observable
            final class Prefs {
                var volume = 3
            }
            """,
            expandedSource: """
                @Observable
                final class Prefs {
                    var volume = 3
                }

                extension Prefs: ObservableCore.KeyValueObservable {
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "'@KeyValueObservable' cannot be combined with '@Observable': both macros make the properties computed; remove '@Observable' and declare the conformance instead (': Observable'), which the observed properties then report to as with '@Observable'",
                    line: 1, column: 1)
            ]
        )
    }
}
