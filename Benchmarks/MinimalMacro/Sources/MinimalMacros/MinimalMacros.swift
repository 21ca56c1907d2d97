import SwiftCompilerPlugin
import SwiftSyntax
import SwiftSyntaxMacros

@main
struct MinimalPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [MinimalKVOMacro.self, MinimalTrackedMacro.self]
}

public struct MinimalKVOMacro: MemberMacro, MemberAttributeMacro, ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax, providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        ["private let _$registry = Minimal.MinimalRegistry()"]
    }

    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
        providingAttributesFor member: some DeclSyntaxProtocol, in context: some MacroExpansionContext
    ) throws -> [AttributeSyntax] {
        guard let variable = member.as(VariableDeclSyntax.self), variable.bindingSpecifier.tokenKind == .keyword(.var),
            let binding = variable.bindings.first, binding.accessorBlock == nil,
            let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, !name.hasPrefix("_")
        else { return [] }
        return ["@Minimal.MinimalTracked"]
    }

    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol, conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        [try ExtensionDeclSyntax("extension \(type.trimmed): Minimal.MinimalObservable {}")]
    }
}

public struct MinimalTrackedMacro: AccessorMacro, PeerMacro {
    public static func expansion(
        of node: AttributeSyntax, providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        guard let name = storedName(declaration) else { return [] }
        return [
            """
            @storageRestrictions(initializes: _\(raw: name))
            init(initialValue) {
                _\(raw: name) = initialValue
            }
            """,
            """
            get {
                _\(raw: name)
            }
            """,
            """
            set {
                guard _$registry.isObserved else {
                    _\(raw: name) = newValue
                    return
                }
                let change = _$registry.willSet(self, \\.\(raw: name), _\(raw: name))
                _\(raw: name) = newValue
                _$registry.didSet(change, _\(raw: name))
            }
            """,
        ]
    }

    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let variable = declaration.as(VariableDeclSyntax.self), let binding = variable.bindings.first,
            let name = storedName(declaration)
        else { return [] }
        let type = binding.typeAnnotation.map { "\($0.trimmed)" } ?? ""
        let value = binding.initializer.map { " \($0.trimmed)" } ?? ""
        return ["private var _\(raw: name)\(raw: type)\(raw: value)"]
    }

    private static func storedName(_ declaration: some DeclSyntaxProtocol) -> String? {
        declaration.as(VariableDeclSyntax.self)?.bindings.first?.pattern.as(IdentifierPatternSyntax.self)?.identifier
            .text
    }
}
