import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// What `@KeyValueObservable` writes for a final class that declares `CustomReflectable`. The
/// properties here are `@Unobserved` or constants but one, so that little besides the mirror
/// appears in the expansion; `ReflectionTests` proves the mirror at run time.
@Suite("@KeyValueObservable mirror expansion")
struct ReflectionExpansionTests {
    @Test("a final CustomReflectable class gets customMirror: stored properties as written, observed ones from storage")
    func writesMirror() {
        assertObservedExpansion(
            """
            @KeyValueObservable
            public final class Tag: CustomReflectable {
                var name = ""
                @Unobserved weak var owner: Tag?
                let id = 1
                var total: Int { 0 }
                static let shared = 0
                lazy var cache = 0
            }
            """,
            expandedSource: """
                public final class Tag: CustomReflectable {
                    var name {
                \(observedAccessors("name"))
                    }
                    weak var owner: Tag?
                    let id = 1
                    var total: Int { 0 }
                    static let shared = 0
                    lazy var cache = 0

                    private nonisolated(unsafe) var _name = ""

                    private let _$name: ObservableCore.ObservationSlot_ForCodableAddKeyValueObservableAndDeclareCodableOnTheClass = ObservableCore.ObservationSlot()

                    public nonisolated static var _$observedProperties: ObservableCore.ObservedPropertyList {
                        ObservableCore.ObservedPropertyList(
                            Tag.self, inheriting: nil,
                            [
                                .init("name", { (object: Tag) in object._name })
                            ]
                        ) { object, slots in
                            slots.append(object._$name)
                        }
                    }

                    public var customMirror: Mirror {
                        Mirror(self, children: ["name": self._name as Any, "owner": self.owner as Any, "id": self.id as Any], displayStyle: .class)
                    }
                }

                extension Tag: ObservableCore.KeyValueObservable, ObservableCore.ObservedPropertyListing {
                }
                """
        )
    }

    @Test("a class writing customMirror itself keeps it; one not declaring CustomReflectable gets none")
    func leavesOthers() {
        assertObservedExpansion(
            """
            @KeyValueObservable
            final class Tag: CustomReflectable {
                @Unobserved var name = ""
                var customMirror: Mirror { Mirror(self, children: []) }
            }
            @KeyValueObservable
            final class Plain {
                @Unobserved var name = ""
            }
            """,
            expandedSource: """
                final class Tag: CustomReflectable {
                    var name = ""
                    var customMirror: Mirror { Mirror(self, children: []) }

                    nonisolated static var _$observedProperties: ObservableCore.ObservedPropertyList {
                        ObservableCore.ObservedPropertyList(
                            Tag.self, inheriting: nil,
                            []
                        ) { _, _ in }
                    }
                }
                final class Plain {
                    var name = ""

                    nonisolated static var _$observedProperties: ObservableCore.ObservedPropertyList {
                        ObservableCore.ObservedPropertyList(
                            Plain.self, inheriting: nil,
                            []
                        ) { _, _ in }
                    }
                }

                extension Tag: ObservableCore.KeyValueObservable, ObservableCore.ObservedPropertyListing {
                }

                extension Plain: ObservableCore.KeyValueObservable, ObservableCore.ObservedPropertyListing {
                }
                """
        )
    }

    @Test("a non-final class declaring CustomReflectable is an error on its name: a subclass would lose its properties")
    func nonFinal() {
        assertObservedExpansion(
            """
            @KeyValueObservable
            class Tag: CustomReflectable {
                @Unobserved var name = ""
            }
            """,
            expandedSource: """
                class Tag: CustomReflectable {
                    var name = ""

                    nonisolated class var _$observedProperties: ObservableCore.ObservedPropertyList {
                        ObservableCore.ObservedPropertyList(
                            Tag.self, inheriting: nil,
                            []
                        ) { _, _ in }
                    }
                }

                extension Tag: ObservableCore.KeyValueObservable, ObservableCore.ObservedPropertyListing {
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "'@KeyValueObservable' writes 'customMirror' only for a final class: a mirror is inherited, and a subclass's properties would be missing from it; make the class final, or write 'customMirror' yourself",
                    line: 2, column: 7)
            ]
        )
    }
}
