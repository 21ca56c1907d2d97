import SwiftCompilerPlugin
import SwiftSyntax
import SwiftSyntaxMacros

@main
struct MinimalPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [MinimalKVOMacro.self, MinimalTrackedMacro.self]
}

public struct MinimalKVOMacro: MemberMacro, MemberAttributeMacro, ExtensionMacro {
    // Unformatted, as ours are: the floor does not pay for work our macros skip.
    public static var formatMode: FormatMode { .disabled }

    public static func expansion(
        of node: AttributeSyntax, providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        // Every property's storage here, in the one request per class, as `@KeyValueObservable` does.
        let storage: [DeclSyntax] = declaration.memberBlock.members.compactMap { member in
            guard let variable = member.decl.as(VariableDeclSyntax.self), isTracked(variable),
                let binding = variable.bindings.first, let name = storedName(variable)
            else { return nil }
            let type = binding.typeAnnotation.map { "\($0.trimmed)" } ?? ""
            let value = binding.initializer.map { " \($0.trimmed)" } ?? ""
            return "private var _\(raw: name)\(raw: type)\(raw: value)"
        }
        return storage + ["private let _$registry = Minimal.MinimalRegistry()"]
    }

    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
        providingAttributesFor member: some DeclSyntaxProtocol, in context: some MacroExpansionContext
    ) throws -> [AttributeSyntax] {
        guard let variable = member.as(VariableDeclSyntax.self), isTracked(variable) else { return [] }
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

public struct MinimalTrackedMacro: AccessorMacro {
    public static var formatMode: FormatMode { .disabled }

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

}

/// A stored `var` of the class, without accessors: what `@MinimalKVO` tracks.
private func isTracked(_ variable: VariableDeclSyntax) -> Bool {
    variable.bindingSpecifier.tokenKind == .keyword(.var) && variable.bindings.first?.accessorBlock == nil
        && storedName(variable).map { !$0.hasPrefix("_") } == true
}

private func storedName(_ declaration: some DeclSyntaxProtocol) -> String? {
    declaration.as(VariableDeclSyntax.self)?.bindings.first?.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
}
