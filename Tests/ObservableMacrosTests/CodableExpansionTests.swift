import ObservableMacros
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// What `@KeyValueObservable` writes for a class that declares a coding protocol. The properties
/// here are `@Unobserved` or constants, so that only the coding members appear in the expansion;
/// `CodableTests` proves the same members with observed properties, against the compiler's own
/// synthesis for plain twins.
@Suite("@KeyValueObservable Codable expansion")
struct CodableExpansionTests {
    @Test("a Codable class gets CodingKeys, init(from:) and encode(to:) for every stored property")
    func writesConformance() {
        assertObservedExpansion(
            """
            @KeyValueObservable
            final class Tag: Codable {
                @Unobserved var name = ""
                @Unobserved weak var owner: Tag?
                let id: Int
                let kind = 1
                var total: Int { 0 }
                static let shared = 0
                init(id: Int) { self.id = id }
            }
            """,
            expandedSource: #"""
                final class Tag: Codable {
                    var name = ""
                    weak var owner: Tag?
                    let id: Int
                    let kind = 1
                    var total: Int { 0 }
                    static let shared = 0
                    init(id: Int) { self.id = id }

                    private enum CodingKeys: CodingKey {
                        case name
                        case owner
                        case id
                        case kind
                    }

                    init(from decoder: any Decoder) throws {
                        let container = try decoder.container(keyedBy: CodingKeys.self)
                        self.name = try container._observedDecode(\Tag.name, forKey: .name)
                        self.owner = try container._observedDecode(Tag?.self, forKey: .owner)
                        self.id = try container._observedDecode(Int.self, forKey: .id)
                    }

                    func encode(to encoder: any Encoder) throws {
                        var container = encoder.container(keyedBy: CodingKeys.self)
                        try container._observedEncode(self.name, forKey: .name)
                        try container._observedEncode(self.owner, forKey: .owner)
                        try container._observedEncode(self.id, forKey: .id)
                        try container._observedEncode(self.kind, forKey: .kind)
                    }

                    nonisolated static var _$observedProperties: ObservableCore.ObservedPropertyList {
                        ObservableCore.ObservedPropertyList(
                            Tag.self, inheriting: nil,
                            []
                        ) { _, _ in }
                    }
                }

                extension Tag: ObservableCore.KeyValueObservable, ObservableCore.ObservedPropertyListing {
                }
                """#
        )
    }

    @Test("a public, non-final class: public members, a required init(from:), and the implicit init() kept")
    func publicClass() {
        assertObservedExpansion(
            """
            @KeyValueObservable
            public class Tag: ObservableCore.KeyValueObservable, Swift.Decodable {
                @Unobserved var name = ""
            }
            """,
            expandedSource: #"""
                public class Tag: ObservableCore.KeyValueObservable, Swift.Decodable {
                    var name = ""

                    private enum CodingKeys: CodingKey {
                        case name
                    }

                    public required init(from decoder: any Decoder) throws {
                        let container = try decoder.container(keyedBy: CodingKeys.self)
                        self.name = try container._observedDecode(\Tag.name, forKey: .name)
                    }

                    init() {
                    }

                    public nonisolated class var _$observedProperties: ObservableCore.ObservedPropertyList {
                        ObservableCore.ObservedPropertyList(
                            Tag.self, inheriting: nil,
                            []
                        ) { _, _ in }
                    }
                }

                extension Tag: ObservableCore.KeyValueObservable, ObservableCore.ObservedPropertyListing {
                }
                """#
        )
        // (The harness always adds the conformance it is told of; the compiler asks only for those
        // the class lacks, so a class declaring it gets no extension.)
    }

    @Test("the class's own CodingKeys, init(from:) and encode(to:) are kept; a wrapped property codes its wrapper")
    func keepsWhatTheClassDeclares() {
        assertObservedExpansion(
            """
            @KeyValueObservable
            final class Tag: Codable {
                @Unobserved var name = ""
                @Clamped var level = 1
                enum CodingKeys: String, CodingKey {
                    case name = "n"
                    case level
                }
                func encode(to encoder: any Encoder) throws {}
            }
            """,
            expandedSource: #"""
                final class Tag: Codable {
                    var name = ""
                    @Clamped var level = 1
                    enum CodingKeys: String, CodingKey {
                        case name = "n"
                        case level
                    }
                    func encode(to encoder: any Encoder) throws {}

                    init(from decoder: any Decoder) throws {
                        let container = try decoder.container(keyedBy: CodingKeys.self)
                        self.name = try container._observedDecode(\Tag.name, forKey: .name)
                        self._level = try container._observedDecode(\Tag._level, forKey: .level)
                    }

                    init() {
                    }

                    nonisolated static var _$observedProperties: ObservableCore.ObservedPropertyList {
                        ObservableCore.ObservedPropertyList(
                            Tag.self, inheriting: nil,
                            []
                        ) { _, _ in }
                    }
                }

                extension Tag: ObservableCore.KeyValueObservable, ObservableCore.ObservedPropertyListing {
                }
                """#
        )
        assertObservedExpansion(
            """
            @KeyValueObservable
            final class Tag: Codable {
                @Unobserved var name = ""
                init(from decoder: any Decoder) throws {}
                func encode(to encoder: any Encoder) throws {}
            }
            """,
            expandedSource: """
                final class Tag: Codable {
                    var name = ""
                    init(from decoder: any Decoder) throws {}
                    func encode(to encoder: any Encoder) throws {}

                    nonisolated static var _$observedProperties: ObservableCore.ObservedPropertyList {
                        ObservableCore.ObservedPropertyList(
                            Tag.self, inheriting: nil,
                            []
                        ) { _, _ in }
                    }
                }

                extension Tag: ObservableCore.KeyValueObservable, ObservableCore.ObservedPropertyListing {
                }
                """
        )
    }

    @Test("a CodingKeys case without a property, and a property without a case or a value, are errors on them")
    func codingKeysMismatch() {
        assertObservedExpansion(
            """
            @KeyValueObservable
            final class Tag: Codable {
                @Unobserved var name = ""
                let id: Int
                enum CodingKeys: CodingKey {
                    case name, colour
                }
            }
            """,
            expandedSource: """
                final class Tag: Codable {
                    var name = ""
                    let id: Int
                    enum CodingKeys: CodingKey {
                        case name, colour
                    }

                    nonisolated static var _$observedProperties: ObservableCore.ObservedPropertyList {
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
                    message: "CodingKey case 'colour' does not match any stored property of 'Tag'", line: 6, column: 20),
                DiagnosticSpec(
                    message:
                        "'init(from:)' cannot set 'id': it has no case in 'CodingKeys' and no initial value; add 'case id' to 'CodingKeys' or give it an initial value",
                    line: 4, column: 9),
            ]
        )
    }

    @Test("@Observed in a Codable class without the class attribute says what to do, on the attribute")
    func observedNeedsClassAttribute() {
        assertObservedExpansion(
            """
            final class Settings: KeyValueObservable, Codable {
                @Observed var volume = 3
            }
            """,
            expandedSource: """
                final class Settings: KeyValueObservable, Codable {
                    var volume = 3
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "'@Observed' in a 'Codable' class needs '@KeyValueObservable' on 'Settings', which writes the conformance the compiler cannot synthesize for observed properties (it observes every stored 'var': mark any to leave alone '@Unobserved')",
                    line: 2, column: 5)
            ]
        )
    }

    /// The statements after the first of the `init(from:)` the class attribute writes for `source`,
    /// expanded by the macro's member role. The members are laid out as text (`LaidOutSyntax`), as
    /// the compiler receives them, so they are parsed here.
    static func decoderAssignments(_ source: DeclSyntax) throws -> [String]? {
        let declaration = try #require(source.as(ClassDeclSyntax.self))
        let attribute = try #require(declaration.attributes.first?.as(AttributeSyntax.self))
        let members = try KeyValueObservableMacro.expansion(
            of: attribute, providingMembersOf: declaration, conformingTo: [],
            in: BasicMacroExpansionContext(lexicalContext: [Syntax(declaration)]))
        let parsed = members.map { DeclSyntax("\(raw: $0.description)") }
        let decoder = try #require(parsed.compactMap { $0.as(InitializerDeclSyntax.self) }.first)
        return decoder.body?.statements.dropFirst().map(\.trimmedDescription)
    }

    @Test("decoding assigns an observed property's storage, as the compiler's synthesis stores a plain property")
    func decodingStoresDirectly() throws {
        let source: DeclSyntax = """
            @KeyValueObservable
            final class Settings: Codable {
                var volume = 3 { didSet { volume = min(volume, 10) } }
                @Observed(skipsEqualValues: true) var theme = "dark"
                weak var owner: Settings?
                @Unobserved var cache = 0
                @Clamped var level = 1
                var `default` = false
            }
            """
        let assignments = try Self.decoderAssignments(source)
        #expect(
            assignments == [
                #"self._volume = try container._observedDecode(\Settings.volume, forKey: .volume)"#,
                #"self._theme = try container._observedDecode(\Settings.theme, forKey: .theme)"#,
                #"self._owner = try container._observedDecode(Settings?.self, forKey: .owner)"#,
                #"self.cache = try container._observedDecode(\Settings.cache, forKey: .cache)"#,
                #"self._level = try container._observedDecode(\Settings._level, forKey: .level)"#,
                #"self._default = try container._observedDecode(\Settings.`default`, forKey: .`default`)"#,
            ])
    }

    @Test("decoding passes a written type as Type.self where it can be spelled so, and a key path otherwise")
    func decodingTypes() throws {
        let source: DeclSyntax = """
            @KeyValueObservable
            final class Sheet: Codable {
                var counts: [String: [Int]] = [:]
                var tags: Swift.Set<String> = []
                var note: Optional<String> = nil
                var picked: Int! = nil
                var inferred = 0.5
                @Clamped var level: Int = 1
            }
            """
        let assignments = try Self.decoderAssignments(source)
        #expect(
            assignments == [
                #"self._counts = try container._observedDecode([String: [Int]].self, forKey: .counts)"#,
                #"self._tags = try container._observedDecode(Swift.Set<String>.self, forKey: .tags)"#,
                #"self._note = try container._observedDecode(Optional<String>.self, forKey: .note)"#,
                #"self._picked = try container._observedDecode(\Sheet.picked, forKey: .picked)"#,
                #"self._inferred = try container._observedDecode(\Sheet.inferred, forKey: .inferred)"#,
                #"self._level = try container._observedDecode(\Sheet._level, forKey: .level)"#,
            ])
    }
}
