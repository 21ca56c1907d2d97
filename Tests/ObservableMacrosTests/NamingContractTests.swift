import ObservableMacros
import SwiftParser
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import Testing

/// The names the macro gives a property's storage and slot (Design.md, "What the macro tells the
/// runtime of a class"): for a property `name`, the storage is `_name` and the slot `_$name`
/// (`_$$name` when no string key reaches it), backticks dropped; the class's list names them.
@Suite("The names the macro gives storage and slot")
struct NamingContractTests {
    @Test(
        "storage _name and slot _$name (_$$name if private or fileprivate), for plain, backticked, weak and restricted properties",
        arguments: [
            ("var name = \"\"", "name", "_$"), ("var `default` = false", "default", "_$"),
            ("weak var owner: Tag?", "owner", "_$"), ("public private(set) var total = 0", "total", "_$"),
            ("private var secret = 0", "secret", "_$$"), ("fileprivate var near = 0", "near", "_$$"),
            ("private(set) var count = 0", "count", "_$"),
        ])
    func peerNames(declaration: String, property: String, slotPrefix: String) throws {
        #expect(try Self.peerNames(of: "@Observed " + declaration) == ["_" + property, slotPrefix + property])
    }

    @Test(
        "stringKey: true opts a private property in, false keeps an internal one out",
        arguments: [
            ("@Observed(stringKey: true) private var draft = 0", "_$draft"),
            ("@Observed(stringKey: false) var audit = 0", "_$$audit"),
            ("@Observed(skipsEqualValues: true, stringKey: true) fileprivate var near = 0", "_$near"),
            ("@ObservableCore.Observed(stringKey: false) public var total = 0", "_$$total"),
        ])
    func optedSlotNames(declaration: String, slot: String) throws {
        #expect(try Self.peerNames(of: declaration).last == slot)
    }

    /// The names of the variables `@Observed` declares beside `declaration` (attribute included), in
    /// a class `Tag`, read as the compiler reads an expansion: its text, parsed.
    private static func peerNames(of declaration: String) throws -> [String] {
        let source: DeclSyntax = "final class Tag {\n    \(raw: declaration)\n}"
        let container = try #require(source.as(ClassDeclSyntax.self))
        let variable = try #require(container.memberBlock.members.first?.decl.as(VariableDeclSyntax.self))
        let attribute = try #require(variable.attributes.first?.as(AttributeSyntax.self))
        let peers = try ObservedMacro.expansion(
            of: attribute, providingPeersOf: variable,
            in: BasicMacroExpansionContext(lexicalContext: [Syntax(container)]))
        return peers.compactMap {
            Parser.parse(source: $0.description).statements.first?.item.as(VariableDeclSyntax.self)?.bindings.first?
                .pattern.trimmedDescription
        }
    }
}
