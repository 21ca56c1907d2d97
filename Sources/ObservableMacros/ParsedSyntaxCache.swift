import SwiftOperators
import SwiftParser
import SwiftSyntax

/// Syntax the compiler sent, parsed once per plugin process while it is in use: the compiler sends a
/// class with each of its expansions and each property twice (for the class attribute's member
/// attribute, then for the accessors), and swift-syntax's handler keeps only the last sixteen texts,
/// fewer than one class's requests bring, so it parsed most of them again.
///
/// Parsed as swift-syntax's handler parses them (`ParsedSyntaxRegistry`: the parser's default
/// language version and no experimental features, which is what it uses once `PluginConnection` has
/// cut the build configuration), and folded with the standard operators where it folds them.
package final class ParsedSyntaxCache {
    /// What the compiler says a text is, as its messages name it (`PluginMessage.Syntax.Kind`).
    package enum Kind: String {
        case declaration, statement, expression, type, pattern, attribute
    }

    private struct Key: Hashable {
        let kind: Kind
        let folded: Bool
        let source: String
    }

    /// Two generations: a text used again moves to the newer one, and the older is dropped when the
    /// newer fills, so the texts of the requests in progress stay and memory stays bounded.
    private var newer: [Key: Syntax] = [:]
    private var older: [Key: Syntax] = [:]
    private let generationSize: Int

    package init(generationSize: Int = 256) {
        self.generationSize = generationSize
    }

    package func syntax(_ source: String, kind: Kind, foldingOperators folded: Bool) -> Syntax {
        let key = Key(kind: kind, folded: folded, source: source)
        if let node = newer[key] { return node }
        let node = older[key] ?? Self.parse(source, kind: kind, foldingOperators: folded)
        if newer.count >= generationSize {
            older = newer
            newer = [:]
        }
        newer[key] = node
        return node
    }

    private static func parse(_ source: String, kind: Kind, foldingOperators: Bool) -> Syntax {
        var parser = Parser(source)
        let node: Syntax
        switch kind {
        case .declaration: node = Syntax(DeclSyntax.parse(from: &parser))
        case .statement: node = Syntax(StmtSyntax.parse(from: &parser))
        case .expression: node = Syntax(ExprSyntax.parse(from: &parser))
        case .type: node = Syntax(TypeSyntax.parse(from: &parser))
        case .pattern: node = Syntax(PatternSyntax.parse(from: &parser))
        case .attribute: node = Syntax(AttributeSyntax.parse(from: &parser))
        }
        guard foldingOperators else { return node }
        return OperatorTable.standardOperators.foldAll(node, errorHandler: { _ in })
    }
}
