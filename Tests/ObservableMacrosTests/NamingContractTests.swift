import ObservableMacros
import SwiftParser
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import Testing

/// The macro's side of the naming contract (Design.md, "The macro and the runtime agree on names"):
/// for a property `name`, the storage is `_name` and the slot `_$name`, backticks dropped. The
/// runtime's `NamingContractTests` checks that reflection finds exactly these fields.
@Suite("The names the macro gives storage and slot")
struct NamingContractTests {
    @Test(
        "storage _name and slot _$name, for plain, backticked and weak properties",
        arguments: [
            ("var name = \"\"", "name"), ("var `default` = false", "default"), ("weak var owner: Tag?", "owner"),
        ])
    func peerNames(declaration: String, property: String) throws {
        let source: DeclSyntax = "final class Tag {\n    @Observed \(raw: declaration)\n}"
        let container = try #require(source.as(ClassDeclSyntax.self))
        let variable = try #require(container.memberBlock.members.first?.decl.as(VariableDeclSyntax.self))
        let attribute = try #require(variable.attributes.first?.as(AttributeSyntax.self))
        let peers = try ObservedMacro.expansion(
            of: attribute, providingPeersOf: variable,
            in: BasicMacroExpansionContext(lexicalContext: [Syntax(container)]))
        // Read as the compiler reads an expansion: its text, parsed.
        let names = peers.compactMap {
            Parser.parse(source: $0.description).statements.first?.item.as(VariableDeclSyntax.self)?.bindings.first?
                .pattern.trimmedDescription
        }
        #expect(names == ["_" + property, "_$" + property])
    }
}
