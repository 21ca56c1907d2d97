import SwiftSyntax

/// Expansion text the macro lays out itself, handed on without being parsed.
///
/// A plugin gives the compiler each expansion as text: with `FormatMode.disabled` that is the
/// returned node's `description`, and the compiler (like swift-syntax's own `MacroSystem`, which the
/// golden expansion tests use) parses that text. So a node that prints the text is all an expansion
/// needs. Parsing the text in the plugin, or rewriting a parsed template, was most of an expansion's
/// time in a debug-built swift-syntax, which is how packages build their macros.
///
/// The node holds the text as one token of kind `.unknown`, which swift-syntax prints verbatim, in
/// the place it keeps text it does not model (unexpected nodes); its own token is missing and
/// prints nothing. Only ever returned from an expansion: nothing in the plugin reads its structure.
enum LaidOutSyntax {
    static func accessor(_ text: String) -> AccessorDeclSyntax {
        AccessorDeclSyntax(
            UnexpectedNodesSyntax([Syntax(token(text))]), accessorSpecifier: .keyword(.get, presence: .missing))
    }

    static func declaration(_ text: String) -> DeclSyntax {
        DeclSyntax(
            MissingDeclSyntax(
                UnexpectedNodesSyntax([Syntax(token(text))]), placeholder: .identifier("", presence: .missing)))
    }

    static func extensionDeclaration(_ text: String) -> ExtensionDeclSyntax {
        ExtensionDeclSyntax(
            UnexpectedNodesSyntax([Syntax(token(text))]), extensionKeyword: .keyword(.extension, presence: .missing),
            extendedType: MissingTypeSyntax(placeholder: .identifier("", presence: .missing)),
            memberBlock: MemberBlockSyntax(
                leftBrace: .leftBraceToken(presence: .missing), members: [],
                rightBrace: .rightBraceToken(presence: .missing)))
    }

    private static func token(_ text: String) -> TokenSyntax {
        TokenSyntax(.unknown(text), presence: .present)
    }
}

/// A template's text cut at its placeholders (identifiers no user code can clash with: they are
/// only ever in our templates), so that each property's text is made by joining strings.
struct PlaceholderTemplate: Sendable {
    enum Placeholder: String, CaseIterable, Sendable {
        case property = "__ObservedMacroProperty"
        case storage = "__ObservedMacroStorage"
        case slot = "__ObservedMacroSlot"
        case registrar = "__ObservedMacroRegistrar"
        case change = "__ObservedMacroChange"
        /// The arguments that run the user's `willSet`/`didSet` around a store (`storesThroughObservers`).
        case observers = "__ObservedMacroObservers"
        /// The local a `_modify` yields when the store runs the user's observers after it.
        case value = "__ObservedMacroValue"

        var token: TokenSyntax { .identifier(rawValue) }
    }

    private enum Piece: Sendable {
        case text(String)
        case placeholder(Placeholder)
    }

    private let pieces: [Piece]

    init(_ text: String) {
        var pieces: [Piece] = []
        var rest = Substring(text)
        while let start = rest.firstRange(of: "__ObservedMacro") {
            let name = rest[start.lowerBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            pieces.append(.text(String(rest[..<start.lowerBound])))
            // Anything else starting so is not ours to fill, and stays as written.
            pieces.append(Placeholder(rawValue: String(name)).map(Piece.placeholder) ?? .text(String(name)))
            rest = rest[name.endIndex...]
        }
        pieces.append(.text(String(rest)))
        self.pieces = pieces
    }

    /// The text with each placeholder replaced by the text `names` gives for it.
    func filled(_ names: (Placeholder) -> String) -> String {
        var result = ""
        for piece in pieces {
            switch piece {
            case .text(let text): result += text
            case .placeholder(let placeholder): result += names(placeholder)
            }
        }
        return result
    }
}
