import SwiftSyntaxMacrosGenericTestSupport
import Testing

@Suite("@Observed diagnostics")
struct ObservedDiagnosticsTests {
    @Test("'let' is rejected on the 'let', with a fix-it to 'var'")
    func letConstant() {
        assertObservedExpansion(
            """
            final class Person {
                @Observed let name: String = ""
            }
            """,
            expandedSource: """
                final class Person {
                    let name: String = ""
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'@Observed' cannot be applied to a 'let' constant", line: 2, column: 15,
                    fixIts: [FixItSpec(message: "Replace 'let' with 'var'")])
            ],
            applyFixIts: ["Replace 'let' with 'var'"],
            fixedSource: """
                final class Person {
                    @Observed var name: String = ""
                }
                """
        )
    }

    @Test("computed properties are rejected, with or without explicit 'get'")
    func computedProperty() {
        // One property per source: with two, the harness reports the second at the first's line
        // (the compiler places both correctly).
        assertObservedExpansion(
            """
            final class Person {
                @Observed var initials: String { "A" }
            }
            """,
            expandedSource: """
                final class Person {
                    var initials: String { "A" }
                }
                """,
            diagnostics: [
                DiagnosticSpec(message: "'@Observed' cannot be applied to a computed property", line: 2, column: 19)
            ]
        )
        assertObservedExpansion(
            """
            final class Person {
                @Observed var nickname: String {
                    get { "" }
                    set {}
                }
            }
            """,
            expandedSource: """
                final class Person {
                    var nickname: String {
                        get { "" }
                        set {}
                    }
                }
                """,
            diagnostics: [
                DiagnosticSpec(message: "'@Observed' cannot be applied to a computed property", line: 2, column: 19)
            ]
        )
    }

    @Test("'static' and 'class' properties are rejected on the modifier")
    func typeProperties() {
        assertObservedExpansion(
            """
            final class Counter {
                @Observed static var total = 0
                @Observed class var shared = 0
            }
            """,
            expandedSource: """
                final class Counter {
                    static var total = 0
                    class var shared = 0
                }
                """,
            diagnostics: [
                DiagnosticSpec(message: "'@Observed' cannot be applied to a 'static' property", line: 2, column: 15),
                DiagnosticSpec(message: "'@Observed' cannot be applied to a 'class' property", line: 3, column: 15),
            ]
        )
    }

    @Test("'lazy' is rejected, with a fix-it removing it")
    func lazyProperty() {
        assertObservedExpansion(
            """
            final class Cache {
                @Observed lazy var table: [Int] = []
            }
            """,
            expandedSource: """
                final class Cache {
                    lazy var table: [Int] = []
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'@Observed' cannot be applied to a 'lazy' property", line: 2, column: 15,
                    fixIts: [FixItSpec(message: "Remove 'lazy'")])
            ],
            applyFixIts: ["Remove 'lazy'"],
            fixedSource: """
                final class Cache {
                    @Observed var table: [Int] = []
                }
                """
        )
    }

    @Test("property wrappers are rejected on the wrapper; global actors are fine")
    func propertyWrapper() {
        assertObservedExpansion(
            """
            final class Form {
                @Observed @Clamped var level: Int = 0
            }
            """,
            expandedSource: """
                final class Form {
                    @Clamped var level: Int = 0
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'@Observed' cannot be combined with property wrapper '@Clamped'", line: 2, column: 15)
            ]
        )
    }

    @Test("an overriding property cannot have an initial value")
    func overrideWithInitialValue() {
        assertObservedExpansion(
            """
            final class Student: Person {
                @Observed override var name: String = ""
            }
            """,
            expandedSource: """
                final class Student: Person {
                    override var name: String = ""
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "an '@Observed' overriding property cannot have an initial value; assign it in an initializer",
                    line: 2, column: 41)
            ]
        )
    }

    @Test("an overriding property cannot keep willSet or didSet")
    func overrideWithObservers() {
        assertObservedExpansion(
            """
            final class Student: Person {
                @Observed override var name: String {
                    didSet { print(name) }
                }
            }
            """,
            expandedSource: """
                final class Student: Person {
                    override var name: String {
                        didSet { print(name) }
                    }
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "an '@Observed' overriding property cannot have 'willSet' or 'didSet'; observe it instead, or override it in a further subclass",
                    line: 3, column: 9)
            ]
        )
    }

    @Test("options must be Boolean literals")
    func optionNotLiteral() {
        assertObservedExpansion(
            """
            final class Person {
                @Observed(skipsEqualValues: Settings.skip) var name = ""
            }
            """,
            expandedSource: """
                final class Person {
                    var name = ""
                }
                """,
            diagnostics: [
                DiagnosticSpec(message: "'skipsEqualValues' must be the literal 'true' or 'false'", line: 2, column: 33)
            ]
        )
    }

    @Test("skipping equal values means nothing when the owner notifies by hand")
    func skipWithManualNotification() {
        assertObservedExpansion(
            """
            final class Person {
                @Observed(skipsEqualValues: true, notifiesAutomatically: false) var name = ""
            }
            """,
            expandedSource: """
                final class Person {
                    var name = ""
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "'skipsEqualValues' has no effect with 'notifiesAutomatically: false': the owner decides when to notify",
                    line: 2, column: 15)
            ]
        )
    }

    @Test("@_ObservedMember, the class attribute's mark, is an error on a property of a class without it")
    func observedMemberWritten() {
        assertObservedExpansion(
            """
            final class Person {
                @_ObservedMember var name = ""
            }
            """,
            expandedSource: """
                final class Person {
                    var name = ""
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "'@_ObservedMember' is written by '@KeyValueObservable' on the class; write '@Observed' instead",
                    line: 2, column: 5)
            ]
        )
    }

    @Test("@KeyValueObservable only applies to classes")
    func classAttributeOnStruct() {
        assertObservedExpansion(
            """
            @KeyValueObservable
            struct Point {
                var x = 0
            }
            """,
            expandedSource: """
                struct Point {
                    var x = 0
                }
                """,
            diagnostics: [
                DiagnosticSpec(message: "'@KeyValueObservable' can only be applied to a class", line: 1, column: 1)
            ]
        )
    }

    @Test("@KeyValueObservable does not silently skip a declaration with several bindings")
    func classAttributeMultipleBindings() {
        assertObservedExpansion(
            """
            @KeyValueObservable
            final class Point {
                var x = 0, y = 0
            }
            """,
            expandedSource: """
                final class Point {
                    var x = 0, y = 0

                    nonisolated static var _$observedProperties: ObservableCore.ObservedPropertyList {
                        ObservableCore.ObservedPropertyList(
                            Point.self, inheriting: nil,
                            []
                        ) { _, _ in }
                    }
                }

                extension Point: ObservableCore.KeyValueObservable, ObservableCore.ObservedPropertyListing {
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "'@KeyValueObservable' cannot observe a declaration with several bindings or a tuple pattern; declare each property separately, or mark it '@Unobserved'",
                    line: 3, column: 9)
            ]
        )
    }

    @Test(
        "members of structs, enums, actors and protocols are rejected on the attribute",
        arguments: [
            ("struct Point", "'Point' is a struct"),
            ("enum Mode", "'Mode' is an enum"),
            ("actor Store", "'Store' is an actor"),
            ("protocol Named", "'Named' is a protocol"),
        ])
    func nonClassContainer(declaration: String, detail: String) {
        assertObservedExpansion(
            """
            \(declaration) {
                @Observed var x: Int = 0
            }
            """,
            expandedSource: """
                \(declaration) {
                    var x: Int = 0
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'@Observed' can only be applied to a stored property of a class; \(detail)", line: 2,
                    column: 5)
            ]
        )
    }

    @Test("extensions and top-level variables are rejected")
    func extensionAndGlobal() {
        assertObservedExpansion(
            """
            extension Person {
                @Observed var nickname: String = ""
            }
            @Observed var global: Int = 0
            """,
            expandedSource: """
                extension Person {
                    var nickname: String = ""
                }
                var global: Int = 0
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "'@Observed' can only be applied to a stored property of a class; stored properties cannot be declared in an extension",
                    line: 2, column: 5),
                DiagnosticSpec(
                    message: "'@Observed' can only be applied to a stored property of a class", line: 4, column: 1),
            ]
        )
    }

    @Test("tuple patterns are rejected on the pattern")
    func tuplePattern() {
        assertObservedExpansion(
            """
            final class Size {
                @Observed var (width, height) = (0, 0)
            }
            """,
            expandedSource: """
                final class Size {
                    var (width, height) = (0, 0)
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'@Observed' cannot be applied to a tuple pattern; declare each property separately",
                    line: 2, column: 19)
            ]
        )
    }

    @Test("several bindings are rejected, with a fix-it splitting them (a missing type is borrowed)")
    func multipleBindings() throws {
        // The expansion harness refuses to run any role on several bindings; the compiler still runs
        // the peer role, which reports this. So this calls the peer role directly.
        let source = """
            final class Size {
                @Observed var width, height: Int, depth = 0
            }
            """
        let (diagnostics, fixed) = try peerRoleDiagnostics(source)
        #expect(
            diagnostics == [
                "2:26: '@Observed' cannot be applied to a declaration with several bindings; declare each property separately"
            ])
        #expect(
            fixed == [
                """
                final class Size {
                    @Observed var width: Int
                    @Observed var height: Int
                    @Observed var depth = 0
                }
                """
            ])
    }

    @Test("a property with neither type nor initial value is rejected, with a fix-it adding a type")
    func missingTypeAndInitializer() {
        assertObservedExpansion(
            """
            final class Person {
                @Observed var name
            }
            """,
            expandedSource: """
                final class Person {
                    var name
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'@Observed' property 'name' needs a type annotation or an initial value", line: 2,
                    column: 19,
                    fixIts: [FixItSpec(message: "Add a type annotation")])
            ],
            applyFixIts: ["Add a type annotation"],
            fixedSource: """
                final class Person {
                    @Observed var name: <#Type#>
                }
                """
        )
    }

    @Test("several problems are all reported")
    func severalProblems() {
        assertObservedExpansion(
            """
            struct Config {
                @Observed static let limit: Int = 0
            }
            """,
            expandedSource: """
                struct Config {
                    static let limit: Int = 0
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'@Observed' can only be applied to a stored property of a class; 'Config' is a struct",
                    line: 2, column: 5),
                DiagnosticSpec(
                    message: "'@Observed' cannot be applied to a 'let' constant", line: 2, column: 22,
                    fixIts: [FixItSpec(message: "Replace 'let' with 'var'")]),
                DiagnosticSpec(message: "'@Observed' cannot be applied to a 'static' property", line: 2, column: 15),
            ]
        )
    }

    @Test("functions are rejected")
    func function() {
        assertObservedExpansion(
            """
            final class Person {
                @Observed func greet() {}
            }
            """,
            expandedSource: """
                final class Person {
                    func greet() {}
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'@Observed' can only be applied to a stored 'var' property of a class", line: 2, column: 5
                )
            ]
        )
    }

    @Test("an opaque type is rejected on the type: the storage could not name it")
    func opaqueType() {
        assertObservedExpansion(
            """
            final class Shape {
                @Observed var size: some Equatable = 1
            }
            """,
            expandedSource: """
                final class Shape {
                    var size: some Equatable = 1
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "'@Observed' cannot be applied to a property of opaque type 'some Equatable'; declare its concrete type",
                    line: 2, column: 25)
            ]
        )
    }

    @Test(
        "'nonisolated(unsafe)' is rejected on the modifier; outside an actor-isolated class the fix-it drops '(unsafe)'"
    )
    func nonisolatedUnsafe() {
        let message =
            "'@Observed' cannot be applied to a 'nonisolated(unsafe)' property: it makes the property computed, where 'nonisolated(unsafe)' has no effect; leave the property unobserved, or drop '(unsafe)' in a class that is not actor-isolated"
        assertObservedExpansion(
            """
            final class Cache {
                @Observed nonisolated(unsafe) var hits: Int = 0
            }
            """,
            expandedSource: """
                final class Cache {
                    nonisolated(unsafe) var hits: Int = 0
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: message, line: 2, column: 15,
                    fixIts: [FixItSpec(message: "Replace 'nonisolated(unsafe)' with 'nonisolated'")])
            ],
            applyFixIts: ["Replace 'nonisolated(unsafe)' with 'nonisolated'"],
            fixedSource: """
                final class Cache {
                    @Observed nonisolated var hits: Int = 0
                }
                """
        )
        assertObservedExpansion(
            """
            @MainActor final class Screen {
                @Observed nonisolated(unsafe) var hits: Int = 0
            }
            """,
            expandedSource: """
                @MainActor final class Screen {
                    nonisolated(unsafe) var hits: Int = 0
                }
                """,
            diagnostics: [DiagnosticSpec(message: message, line: 2, column: 15)]
        )
    }

    @Test(
        "'nonisolated' on a mutable property of a visibly actor-isolated class is rejected, as plain Swift rejects it")
    func nonisolatedInIsolatedClass() {
        assertObservedExpansion(
            """
            @MainActor final class Screen {
                @Observed nonisolated var hits: Int = 0
            }
            """,
            expandedSource: """
                @MainActor final class Screen {
                    nonisolated var hits: Int = 0
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "'nonisolated' cannot be applied to a mutable stored property of a '@MainActor' class, with or without '@Observed'",
                    line: 2, column: 15)
            ]
        )
    }

    @Test("@KeyValueObservable reports a stored var it cannot observe instead of leaving it silently unobserved")
    func classAttributeReportsStoredVars() {
        assertObservedExpansion(
            """
            @KeyValueObservable
            final class Shape {
                var size: some Equatable = 1
                lazy var label = ""
                var area: Int { 0 }
            }
            """,
            expandedSource: """
                final class Shape {
                    var size: some Equatable = 1
                    lazy var label = ""
                    var area: Int { 0 }

                    nonisolated static var _$observedProperties: ObservableCore.ObservedPropertyList {
                        ObservableCore.ObservedPropertyList(
                            Shape.self, inheriting: nil,
                            []
                        ) { _, _ in }
                    }
                }

                extension Shape: ObservableCore.KeyValueObservable, ObservableCore.ObservedPropertyListing {
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "'@Observed' cannot be applied to a property of opaque type 'some Equatable'; declare its concrete type",
                    line: 3, column: 15)
            ]
        )
    }
}
