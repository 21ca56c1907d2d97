import SwiftSyntax

extension SyntaxProtocol {
    /// The node's text without its outer trivia, what `trimmedDescription` gives, read from its
    /// tokens: `trimmed` copies the tree up to its root, which made it the plugin's largest cost per
    /// request (the compiler asks about every member of a class).
    var textWithoutTrivia: String {
        // The common case, an attribute's or a type's plain name, read straight off its token.
        if let name = Syntax(self).as(IdentifierTypeSyntax.self), name.genericArgumentClause == nil {
            return name.name.text
        }
        var text = ""
        var trailing: Trivia = []
        for (index, token) in tokens(viewMode: .sourceAccurate).enumerated() {
            if index > 0 {
                trailing.write(to: &text)
                token.leadingTrivia.write(to: &text)
            }
            text += token.text
            trailing = token.trailingTrivia
        }
        return text
    }
}

extension TokenSyntax {
    /// The same token without trivia, made afresh rather than trimmed (see `textWithoutTrivia`).
    var withoutTrivia: TokenSyntax {
        TokenSyntax(tokenKind, presence: presence)
    }
}
