#if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
import ObservableMacros
@_spi(PluginMessage) import SwiftCompilerPluginMessageHandling
import SwiftSyntax
import Testing

/// The plugin answers its attached macros' requests itself (`ExpansionShortcut`): its responses must
/// be byte for byte those of swift-syntax's connection and handler, on every kind of request, and it
/// must leave to the handler what needs it (diagnostics, other messages).
@Suite struct ExpansionShortcutTests {
    // MARK: Requests as the compiler writes them

    /// One text of a request, with a location as the compiler gives it.
    static func text(_ kind: String, _ source: String, line: Int = 1) -> String {
        let location =
            #"{"column":1,"fileID":"M/M.swift","fileName":"/m/M.swift","line":\#(line),"offset":\#(line * 10)}"#
        return #"{"kind":"\#(kind)","location":\#(location),"source":\#(json(source))}"#
    }

    /// `text` as a JSON string, escaped as the compiler escapes it.
    static func json(_ text: String) -> String {
        var escaped = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\t": escaped += "\\t"
            case "\r": escaped += "\\r"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                escaped += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped + "\""
    }

    static func request(
        role: String, macro: (name: String, type: String), attribute: String, declaration: String,
        parent: String? = nil, extendedType: String? = nil, conformances: String? = nil, lexicalContext: [String],
        discriminator: String
    ) -> String {
        var fields = [
            #""attributeSyntax":\#(text("attribute", attribute))"#,
            #""declSyntax":\#(text("declaration", declaration, line: 2))"#,
            #""discriminator":\#(json(discriminator))"#,
            #""lexicalContext":[\#(lexicalContext.map { text("declaration", $0) }.joined(separator: ","))]"#,
            #""macro":{"moduleName":"ObservableMacros","name":"\#(macro.name)","typeName":"\#(macro.type)"}"#,
            #""macroRole":"\#(role)""#,
        ]
        if let conformances { fields.insert(#""conformanceListSyntax":\#(text("declaration", conformances))"#, at: 0) }
        if let extendedType { fields.append(#""extendedTypeSyntax":\#(text("type", extendedType))"#) }
        if let parent { fields.append(#""parentDeclSyntax":\#(text("declaration", parent))"#) }
        return #"{"expandAttachedMacro":{\#(fields.sorted().joined(separator: ","))}}"#
    }

    /// The requests the compiler sends for a `@KeyValueObservable` class: its members, an attribute
    /// for each member, its extension, then the accessors of each property it marks.
    static func classRequests(_ source: String, marked: [String], conformances: String = "KeyValueObservable")
        -> [String]
    {
        let classDecl = DeclSyntax(stringLiteral: source).cast(ClassDeclSyntax.self)
        let name = classDecl.name.text
        let attribute = "\n@KeyValueObservable "
        let macro = (name: "KeyValueObservable", type: "KeyValueObservableMacro")
        // The compiler gives the class without its members as the lexical context.
        let empty = classDecl.with(\.memberBlock, MemberBlockSyntax(members: [])).description
        var requests = [
            request(
                role: "member", macro: macro, attribute: attribute, declaration: source, lexicalContext: [],
                discriminator: "$s1M\(name.count)\(name)C18KeyValueObservablefMm_")
        ]
        for (index, member) in classDecl.memberBlock.members.enumerated() {
            requests.append(
                request(
                    role: "memberAttribute", macro: macro, attribute: attribute, declaration: member.description,
                    parent: source, lexicalContext: [empty], discriminator: "$s1M\(name)\(index)fMr_"))
        }
        requests.append(
            request(
                role: "extension", macro: macro, attribute: attribute, declaration: source,
                extendedType: name, conformances: "struct Placeholder: \(conformances) {}", lexicalContext: [],
                discriminator: "$s1M\(name.count)\(name)C18KeyValueObservablefMe_"))
        for member in classDecl.memberBlock.members {
            guard let property = member.decl.as(VariableDeclSyntax.self),
                let identifier = property.bindings.first?.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                let attribute = marked.first(where: { $0.hasSuffix(":" + identifier) }).map({
                    String($0.dropLast(identifier.count + 1))
                })
            else { continue }
            requests.append(
                request(
                    role: "accessor", macro: (name: "_ObservedMember", type: "ObservedMacro"), attribute: attribute,
                    declaration: member.description, lexicalContext: [empty],
                    discriminator: "$s1M\(name)C\(identifier.count)\(identifier)15_ObservedMemberfMa_"))
        }
        return requests
    }

    static let capability = PluginConnectionTests.capabilityRequest

    static let classes: [(source: String, marked: [String])] = [
        (
            """

            @KeyValueObservable final class Model {
                var count: Int = 0
                var name = "a \\"quoted\\" name, ü 🙂"
                let id = 1
                @Unobserved var scratch = 2
                weak var parent: Model?
                var items: [String] = [] {
                    didSet { print(oldValue) }
                }
                static var shared = 0
                var computed: Int { count * 2 }
                init() {}
            }
            """,
            ["@_ObservedMember:count", "@_ObservedMember:name", "@_ObservedMember:parent", "@_ObservedMember:items"]
        ),
        (
            """

            @KeyValueObservable final class Panel: Observable {
                var title = ""
                var values: [Double] = []
            }
            """,
            ["@_ObservedMember:title", "@_ObservedMember:values"]
        ),
        (
            """

            @KeyValueObservable final class Own: Observable {
                var title = ""
                func access<Member>(keyPath: KeyPath<Own, Member>) {}
            }
            """,
            ["@_ObservedMember(callsClassMembers: true):title"]
        ),
        (
            """

            @KeyValueObservable final class Document: Codable {
                var title = "untitled"
                var pages: [String] = []
                @available(*, deprecated) var legacy: Int = 0
            }
            """,
            ["@_ObservedMember:title", "@_ObservedMember:pages", "@_ObservedMember:legacy"]
        ),
        (
            """

            @KeyValueObservable final class Box<Value> {
                var value: Value
                init(value: Value) { self.value = value }
            }
            """,
            ["@_ObservedMember:value"]
        ),
    ]

    @Test(arguments: classes.indices)
    func answersAsSwiftSyntaxDoes(index: Int) throws {
        let (source, marked) = Self.classes[index]
        let requests = [Self.capability] + Self.classRequests(source, marked: marked)
        let ours = try PluginConnectionTests.responses(to: requests, onOurConnection: true)
        let theirs = try PluginConnectionTests.responses(to: requests, onOurConnection: false)
        #expect(ours == theirs)
        #expect(!ours.contains(#""severity":"error""#))
        // Each request was answered, and the shortcut answered each itself.
        let shortcut = ExpansionShortcut(MacroProvider(ObservableMacrosPlugin()))
        #expect(Self.answer(Self.capability, by: shortcut) == nil)
        for request in requests.dropFirst() {
            #expect(Self.answer(request, by: shortcut) != nil, "not answered by the shortcut: \(request)")
        }
        #expect(ours.ranges(of: #"{"expandMacroResult""#).count == requests.count - 1)
    }

    static func answer(_ message: String, by shortcut: ExpansionShortcut) -> String? {
        var bytes = Array(message.utf8)
        return bytes.withUnsafeMutableBufferPointer { shortcut.expandedSource(for: UnsafeBufferPointer($0)) }
    }

    @Test func expandsWhatTheHandlerExpands() throws {
        let shortcut = ExpansionShortcut(MacroProvider(ObservableMacrosPlugin()))
        _ = Self.answer(Self.capability, by: shortcut)
        let requests = Self.classRequests(Self.classes[0].source, marked: Self.classes[0].marked)
        let last = try #require(requests.last)
        let accessors = try #require(Self.answer(last, by: shortcut))
        // The property with `didSet` keeps its block: the accessors join it.
        #expect(accessors.contains("_$items.willSet(self, _items)"))
        // Unique names as the plugin's context makes them: the discriminator, the name, `fMu_`.
        #expect(accessors.contains("$s1MModelC5items15_ObservedMemberfMa_6changefMu_"))
        let members = try #require(Self.answer(requests[0], by: shortcut))
        #expect(members.contains("private var _count: Int = 0"))
        #expect(!members.contains("_scratch"))
    }

    @Test func leavesToTheHandlerWhatItDoesNotTakeOn() throws {
        let shortcut = ExpansionShortcut(MacroProvider(ObservableMacrosPlugin()))
        let member = Self.classRequests(Self.classes[0].source, marked: [])[0]
        // Before the compiler has said it reads `expandMacroResult`.
        #expect(Self.answer(member, by: shortcut) == nil)
        _ = Self.answer(Self.capability, by: shortcut)
        #expect(Self.answer(member, by: shortcut) != nil)
        // A diagnostic: on a struct, the class attribute reports that it needs a class.
        let onStruct = Self.request(
            role: "extension", macro: (name: "KeyValueObservable", type: "KeyValueObservableMacro"),
            attribute: "@KeyValueObservable ", declaration: "@KeyValueObservable struct S { var x = 0 }",
            extendedType: "S", conformances: "struct Placeholder: KeyValueObservable {}", lexicalContext: [],
            discriminator: "$s1M1SV18KeyValueObservablefMe_")
        #expect(Self.answer(onStruct, by: shortcut) == nil)
        let requests = [Self.capability, onStruct]
        let ours = try PluginConnectionTests.responses(to: requests, onOurConnection: true)
        #expect(ours == (try PluginConnectionTests.responses(to: requests, onOurConnection: false)))
        #expect(ours.contains(#""severity":"error""#))
        // A macro not in this plugin, a role it has none of, and a message that is not JSON.
        let unknown = member.replacing("KeyValueObservableMacro", with: "Elsewhere")
        let preamble = member.replacing(#""macroRole":"member""#, with: #""macroRole":"preamble""#)
        for message in [unknown, preamble, "{\"expandAttachedMacro\":", "[]"] {
            #expect(Self.answer(message, by: shortcut) == nil)
        }
        // With a build configuration the connection did not cut: the handler parses by it.
        let configured = member.replacing(
            #"{"expandAttachedMacro":{"#, with: #"{"expandAttachedMacro":{"staticBuildConfiguration":"{}","#)
        #expect(configured != member)
        #expect(Self.answer(configured, by: shortcut) == nil)
        // Without its lexical context (older compilers): the handler finds it from the syntax.
        let withoutContext = member.replacing(#""lexicalContext":[],"#, with: "")
        #expect(withoutContext != member)
        #expect(Self.answer(withoutContext, by: shortcut) == nil)
    }

    // MARK: The JSON reader

    static func parse(_ text: String) -> JSONValue? {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { JSONValue(parsing: UnsafeBufferPointer($0)) }
    }

    @Test func readsValues() {
        #expect(
            Self.parse(#" {"a": [1, -2.5e3, true, false, null], "b": {}, "c": [], "d": ""} "#)
                == .object([
                    "a": .array([.number("1"), .number("-2.5e3"), .bool(true), .bool(false), .null]),
                    "b": .object([:]), "c": .array([]), "d": .string(""),
                ]))
    }

    @Test(arguments: [
        (#""a\"b\\c\/d""#, "a\"b\\c/d"),
        (#""\b\f\n\r\t""#, "\u{08}\u{0C}\n\r\t"),
        (#""\u00e9\u0041""#, "éA"),
        (#""\ud83d\ude42 and 🙂""#, "🙂 and 🙂"),
        (#""plain, no escapes""#, "plain, no escapes"),
        (#""\\""#, "\\"),
    ])
    func readsStrings(json: String, expected: String) {
        #expect(Self.parse(json) == .string(expected))
    }

    @Test(arguments: [
        #""unterminated"#, #""\x""#, #""\ud83d""#, #""\ud83d\u0041""#, #""\ude42""#, #""\u12""#,
        #"{"a" 1}"#, #"{"a":1,}"#, #"[1 2]"#, #"{"a":1} x"#, "tru", "", "{",
    ])
    func refusesWhatIsNotJSON(json: String) {
        #expect(Self.parse(json) == nil)
    }

    // MARK: The parse cache

    @Test func parsesEachTextOnceWhileInUse() {
        let cache = ParsedSyntaxCache(generationSize: 2)
        let first = cache.syntax("var a = 1", kind: .declaration, foldingOperators: false)
        #expect(cache.syntax("var a = 1", kind: .declaration, foldingOperators: false).id == first.id)
        // Another kind, or folded, is another entry.
        #expect(cache.syntax("var a = 1", kind: .declaration, foldingOperators: true).id != first.id)
        // Two more texts fill the newer generation twice over: the first text is parsed again.
        _ = cache.syntax("var b = 1", kind: .declaration, foldingOperators: false)
        _ = cache.syntax("var c = 1", kind: .declaration, foldingOperators: false)
        _ = cache.syntax("var d = 1", kind: .declaration, foldingOperators: false)
        let again = cache.syntax("var a = 1", kind: .declaration, foldingOperators: false)
        #expect(again.id != first.id)
        #expect(again.description == first.description)
    }

    @Test func foldsOperatorsWhereTheHandlerFolds() throws {
        let cache = ParsedSyntaxCache()
        let folded = cache.syntax("@Observed(x: 1 + 2 * 3)", kind: .attribute, foldingOperators: true)
        let plain = cache.syntax("@Observed(x: 1 + 2 * 3)", kind: .attribute, foldingOperators: false)
        #expect(folded.description == plain.description)
        #expect(Array(folded.tokens(viewMode: .all)).count == Array(plain.tokens(viewMode: .all)).count)
        #expect(folded.description.contains("1 + 2 * 3"))
        let argument = try #require(folded.as(AttributeSyntax.self)?.arguments?.as(LabeledExprListSyntax.self)?.first)
        #expect(argument.expression.is(InfixOperatorExprSyntax.self))
        let unfolded = try #require(plain.as(AttributeSyntax.self)?.arguments?.as(LabeledExprListSyntax.self)?.first)
        #expect(unfolded.expression.is(SequenceExprSyntax.self))
    }
}
#endif
