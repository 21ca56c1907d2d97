import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// The context `ExpansionShortcut` expands in: swift-syntax's plugin context without source locations,
/// which only diagnostics need, and an expansion with a diagnostic is handed to swift-syntax's handler
/// instead.
final class ShortcutExpansionContext: MacroExpansionContext {
    let lexicalContext: [Syntax]
    private let discriminator: String
    private var uniqueNames: [String: Int] = [:]
    private(set) var diagnostics: [Diagnostic] = []

    init(lexicalContext: [Syntax], discriminator: String) {
        self.lexicalContext = lexicalContext
        self.discriminator = discriminator
    }

    /// The name swift-syntax's plugin context makes (`PluginMacroExpansionContext`): the discriminator,
    /// the name mangled, `fMu`, and the index from the second use of a name on.
    func makeUniqueName(_ providedName: String) -> TokenSyntax {
        let name = providedName.isEmpty ? "__local" : providedName
        let index = uniqueNames[name, default: 0]
        uniqueNames[name] = index + 1
        var result = discriminator + "\(name.count)\(name)fMu"
        if index > 0 { result += "\(index - 1)" }
        result += "_"
        return TokenSyntax(.identifier(result), presence: .present)
    }

    func diagnose(_ diagnostic: Diagnostic) {
        diagnostics.append(diagnostic)
    }

    func location(
        of node: some SyntaxProtocol, at position: PositionInSyntaxNode, filePathMode: SourceLocationFilePathMode
    ) -> AbstractSourceLocation? {
        nil
    }
}
