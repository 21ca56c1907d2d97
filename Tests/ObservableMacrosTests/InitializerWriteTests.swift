import ObservableMacros
import SwiftDiagnostics
import SwiftParser
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import Testing

/// The warnings `@KeyValueObservable` gives in its class's initializers: `"line:column"` of each
/// warned reference, in source order, and the source with every fix-it applied.
private func initializerWarnings(_ source: String) -> (at: [String], messages: [String], fixed: String) {
    let tree = Parser.parse(source: source)
    let context = BasicMacroExpansionContext(
        sourceFiles: [tree: .init(moduleName: "Model", fullFilePath: "Model.swift")])
    let attribute: AttributeSyntax = "@KeyValueObservable"
    for statement in tree.statements {
        guard let declaration = statement.item.as(ClassDeclSyntax.self) else { continue }
        for member in declaration.memberBlock.members {
            _ = try? KeyValueObservableMacro.expansion(
                of: attribute, attachedTo: declaration, providingAttributesFor: member.decl, in: context)
        }
    }
    let converter = SourceLocationConverter(fileName: "Model.swift", tree: tree)
    var at: [String] = []
    var messages: [String] = []
    var replacements: [(range: Range<Int>, text: String)] = []
    for diagnostic in context.diagnostics where diagnostic.diagMessage.severity == .warning {
        let location = diagnostic.location(converter: converter)
        at.append("\(location.line):\(location.column)")
        messages.append(diagnostic.message)
        for case .replace(let old, let new) in diagnostic.fixIts.flatMap(\.changes) {
            replacements.append((old.position.utf8Offset..<old.endPosition.utf8Offset, new.description))
        }
    }
    var fixed = Array(source.utf8)
    for replacement in replacements.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
        fixed.replaceSubrange(replacement.range, with: Array(replacement.text.utf8))
    }
    return (at, messages, String(decoding: fixed, as: UTF8.self))
}

@Suite("@KeyValueObservable warns where an initializer runs an observed property's willSet or didSet")
struct InitializerWriteTests {
    @Test("a property with an initial value, in a class whose stored properties all have one: every write warns")
    func initialValue() {
        let result = initializerWarnings(
            """
            @KeyValueObservable final class Box {
                var n = 0 { didSet { if n > 5 { n = 5 } } }
                init(n: Int) { self.n = n }
            }
            """)
        #expect(result.at == ["3:25"])
        #expect(
            result.messages == [
                "this assignment to 'n' runs its 'didSet': the instance is fully initialized here, so Swift calls the observed property's setter (as for '@Observable'), where a plain stored property is stored directly by its initializer"
            ])
        #expect(result.fixed.contains("init(n: Int) { self._n = n }"))
    }

    @Test("only once every stored property is initialized: before, the init accessor stores directly")
    func beforeAndAfterTheLastStoredProperty() {
        let result = initializerWarnings(
            """
            @KeyValueObservable final class Pair {
                var n: Int { didSet { print(n) } }
                var m: Int { willSet { print(m) } }
                let k: Int
                var label: String?
                init() {
                    self.n = 5
                    self.n = 6
                    self.m = 1
                    self.k = 2
                    self.n = 7
                    m += 1
                }
            }
            """)
        #expect(result.at == ["11:14", "12:9"])
        #expect(result.messages.last?.hasPrefix("this assignment to 'm' runs its 'willSet':") == true)
        #expect(result.fixed.contains("self._n = 7\n        _m += 1"))
    }

    @Test(
        "every kind of write the macro can tell: =, compound assignment, in-out, a part of the value; not reads or calls"
    )
    func kindsOfWrite() {
        let result = initializerWarnings(
            """
            @KeyValueObservable final class Shapes {
                var point = Point() { didSet {} }
                var tags: [Int] = [] { didSet {} }
                init(flag: Bool) {
                    print(self.point, tags.count)
                    self.point.x = 1
                    point.y += 2
                    swap(&self.tags, &other)
                    self.tags[0] = 3
                    tags.append(4)
                    if flag { (self).tags = [] }
                    _ = self.point == point
                }
            }
            """)
        #expect(result.at == ["6:14", "7:9", "8:20", "9:14", "11:26"])
    }

    @Test(
        "not in a closure or a nested function (plain Swift runs the observers there too), nor on what shadows the property"
    )
    func otherFunctionsAndShadows() {
        let result = initializerWarnings(
            """
            @KeyValueObservable final class Box {
                var n = 0 { didSet {} }
                var later: (() -> Void)?
                init(count: Int) {
                    later = { self.n = 4 }
                    func set() { self.n = 5 }
                    set()
                    var copy = count
                    copy += 1
                    if let n = Optional(3) { print(n) }
                    do {
                        let n = 1
                        print(n)
                    }
                    n = 6
                }
            }
            """)
        #expect(result.at == ["15:9"])
        #expect(result.fixed.contains("        _n = 6\n"))
    }

    @Test("a subclass: after super.init only; without a call to it, never (it is implicit, at the end)")
    func subclass() {
        let result = initializerWarnings(
            """
            @KeyValueObservable final class Explicit: Base {
                var n: Int { didSet {} }
                var o = 0 { didSet {} }
                override init() {
                    self.n = 1
                    self.o = 2
                    super.init()
                    self.n = 3
                    self.inherited = 4
                }
            }
            @KeyValueObservable final class Implicit: Base {
                var n = 0 { didSet {} }
                init(n: Int) { self.n = n }
            }
            """)
        #expect(result.at == ["8:14"])
    }

    @Test("a convenience initializer after self.init; a defer, which runs at the end")
    func delegationAndDefer() {
        let result = initializerWarnings(
            """
            @KeyValueObservable final class Box {
                var n: Int { didSet {} }
                let k: Int
                init() {
                    defer { self.n = 9 }
                    self.n = 1
                    self.k = 0
                }
                convenience init(n: Int) {
                    self.n = n - 1
                    self.init()
                    self.n = n
                }
            }
            """)
        #expect(result.at == ["5:22", "12:14"])
    }

    @Test("an optional var starts as nil: it needs no initializing, so the instance may be initialized from the start")
    func optionalStartsAsNil() {
        let result = initializerWarnings(
            """
            @KeyValueObservable final class Box {
                var n: Int? { didSet {} }
                weak var parent: Box?
                var m: Optional<Int> { didSet {} }
                init() {
                    self.n = 1
                    self.m = 2
                }
            }
            """)
        #expect(result.at == ["6:14", "7:14"])
    }

    @Test("nothing where it cannot be told, and nothing for a property without observers or left unobserved")
    func nothingToSay() {
        let result = initializerWarnings(
            """
            @KeyValueObservable final class Unknown {
                var n = 0 { didSet {} }
                #if DEBUG
                var extra: Int
                #endif
                init() { self.n = 1 }
            }
            @KeyValueObservable final class Wrapped {
                var n = 0 { didSet {} }
                @Clamped var level: Int
                init() { self.n = 1 }
            }
            @KeyValueObservable final class Mixed: SomeBaseOrProtocol {
                var n = 0 { didSet {} }
                init() { self.n = 1 }
            }
            @KeyValueObservable final class Quiet {
                var n = 0
                @Unobserved var u = 0 { didSet {} }
                let c = 0
                init() {
                    self.n = 1
                    self.u = 2
                }
            }
            """)
        #expect(result.at.isEmpty)
    }

    @Test("a property inside #if is checked too, and a class declaring a known protocol is a root class")
    func ifConfigAndKnownProtocols() {
        let result = initializerWarnings(
            """
            @KeyValueObservable final class Box: Codable, Sendable {
                #if DEBUG
                var n = 0 { didSet {} }
                #endif
                @Observed var o = 0 { willSet {} didSet {} }
                init() {
                    self.n = 1
                    self.o = 2
                }
            }
            """)
        #expect(result.at == ["7:14", "8:14"])
        #expect(result.messages.last?.hasPrefix("this assignment to 'o' runs its 'willSet' and 'didSet':") == true)
    }
}
