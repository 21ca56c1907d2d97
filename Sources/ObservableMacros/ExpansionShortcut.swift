import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros

// Only the plugin's own connection uses it (see `PluginConnection`).
#if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
/// Answers the compiler's requests to expand this plugin's attached macros without swift-syntax's
/// message handler, for `PluginConnection`: in a debug-built plugin (how packages build macros),
/// decoding each request with swift-syntax's `Decodable` machinery and parsing again texts it had
/// just parsed were more than half of the plugin's time (BENCHMARKS.md, "Compile time").
///
/// It expands exactly as the handler does (`PluginProviderMessageHandler.expandAttachedMacro`): the
/// same parse of each text, the same folding, the same expansion and collapse functions, the same
/// unique names. Whatever it does not take on it leaves to the handler by returning nil: any other
/// message, another role, a macro not in this plugin, a compiler too old for `expandMacroResult`, a
/// request without its lexical context or still carrying its build configuration, and any
/// expansion with a diagnostic (which needs the source locations only the handler keeps). `ExpansionShortcutTests` compares the two on every request.
package final class ExpansionShortcut {
    private let provider: MacroProvider
    private let parsed = ParsedSyntaxCache()
    /// The protocol version the compiler announced; an expansion is answered only from 5 on, which
    /// have the `expandMacroResult` response the connection writes.
    private var hostProtocolVersion = 0

    package init(_ provider: MacroProvider) {
        self.provider = provider
    }

    /// The expanded source for the request in `message` (JSON, its build configuration cut), or nil
    /// to leave the message to swift-syntax's handler.
    package func expandedSource(for message: UnsafeBufferPointer<UInt8>) -> String? {
        guard let json = JSONValue(parsing: message) else { return nil }
        if let capability = json["getCapability"] {
            if case .number(let version)? = capability["capability"]?["protocolVersion"] {
                hostProtocolVersion = Int(version) ?? 0
            }
            return nil
        }
        guard hostProtocolVersion >= 5, let request = json["expandAttachedMacro"] else { return nil }
        return expandedSource(for: request)
    }

    private func expandedSource(for request: JSONValue) -> String? {
        // A build configuration the connection could not cut would change how the handler parses.
        guard request["staticBuildConfiguration"] == nil,
            let moduleName = request["macro"]?["moduleName"]?.string,
            let typeName = request["macro"]?["typeName"]?.string,
            let definition = try? provider.resolveMacro(moduleName: moduleName, typeName: typeName),
            let role = request["macroRole"]?.string.flatMap(Self.role),
            let discriminator = request["discriminator"]?.string,
            case .array(let lexicalContextTexts)? = request["lexicalContext"],
            let attribute = syntax(request["attributeSyntax"], foldingOperators: true)?.as(AttributeSyntax.self),
            let declaration = syntax(request["declSyntax"], foldingOperators: false)?.as(DeclSyntax.self)
        else { return nil }
        var lexicalContext: [Syntax] = []
        for text in lexicalContextTexts {
            guard let node = syntax(text, foldingOperators: true) else { return nil }
            lexicalContext.append(node)
        }
        // The optional texts: absent, or there and readable.
        func optional<Node: SyntaxProtocol>(_ key: String, as type: Node.Type) -> Node?? {
            guard let value = request[key], value != .null else { return .some(nil) }
            return syntax(value, foldingOperators: false)?.as(type).map { .some($0) }
        }
        guard let parent = optional("parentDeclSyntax", as: DeclSyntax.self),
            let extendedType = optional("extendedTypeSyntax", as: TypeSyntax.self),
            let placeholder = optional("conformanceListSyntax", as: StructDeclSyntax.self)
        else { return nil }
        var conformanceList: InheritedTypeListSyntax?
        if let placeholder {
            guard let inherited = placeholder.inheritanceClause?.inheritedTypes else { return nil }
            conformanceList = inherited
        }

        let context = ShortcutExpansionContext(lexicalContext: lexicalContext, discriminator: discriminator)
        // The label the handler's release uses (602 renamed it, deprecating the old one).
        #if canImport(SwiftSyntax602)
        let expanded = SwiftSyntaxMacroExpansion.expandAttachedMacroWithoutCollapsing(
            definition: definition, macroRole: role, attributeNode: attribute, node: declaration,
            parentDeclNode: parent, extendedType: extendedType, conformanceList: conformanceList, in: context)
        #else
        let expanded = SwiftSyntaxMacroExpansion.expandAttachedMacroWithoutCollapsing(
            definition: definition, macroRole: role, attributeNode: attribute, declarationNode: declaration,
            parentDeclNode: parent, extendedType: extendedType, conformanceList: conformanceList, in: context)
        #endif
        guard let expansions = expanded, context.diagnostics.isEmpty else { return nil }
        // From swift-syntax 601 the handler collapses a `.disabled` expansion without indenting it;
        // 600's indents what it wraps in braces whatever the mode (see `AccessorShape`).
        var indentation: Trivia?
        #if canImport(SwiftSyntax601)
        if case .disabled = definition.formatMode { indentation = [] }
        #endif
        return SwiftSyntaxMacroExpansion.collapse(
            expansions: expansions, for: role, attachedTo: declaration, indentationWidth: indentation)
    }

    /// A text of the request (`{"kind": …, "source": …, "location": …}`), parsed.
    private func syntax(_ value: JSONValue?, foldingOperators: Bool) -> Syntax? {
        guard let source = value?["source"]?.string,
            let kind = value?["kind"]?.string.flatMap(ParsedSyntaxCache.Kind.init(rawValue:))
        else { return nil }
        return parsed.syntax(source, kind: kind, foldingOperators: foldingOperators)
    }

    /// The roles this plugin's macros have, by the name the compiler's messages give them.
    private static func role(_ name: String) -> MacroRole? {
        switch name {
        case "accessor": .accessor
        case "memberAttribute": .memberAttribute
        case "member": .member
        case "peer": .peer
        case "extension": .extension
        default: nil
        }
    }
}
#endif
