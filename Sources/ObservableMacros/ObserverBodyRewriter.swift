import SwiftSyntax

/// Moves a property's own `willSet`/`didSet` body onto its storage, redirecting to the storage exactly
/// the references Swift itself would resolve to the storage.
///
/// Swift's rule: inside a property's observer, an access to that property on `self` (`x`,
/// `self.x`) goes directly to the storage, so a store there does not run the observers again. It
/// holds in the observer's own body (`defer`, `do` and nested statements included) and nowhere
/// else: a closure or a nested function is a function of its own, whose accesses go through the
/// accessors (a closure that sets `x` later notifies, as it runs the setter). So this rewrites
/// `self.x` and an unshadowed bare `x` in that body, and leaves alone what names something else:
/// locals, parameters and pattern bindings named `x` in their scope, `other.x`, key-path components
/// (`\.x` names the property itself), nested closures, functions and types.
enum ObserverBodyRewriter {
    /// `accessor` with its body's direct references to `property` renamed to `storage`.
    static func rewrite(_ accessor: AccessorDeclSyntax, property: String, storage: String) -> AccessorDeclSyntax {
        guard let body = accessor.body else { return accessor }
        let finder = DirectAccessFinder(property: property, shadowedFromStart: binds(accessor, property))
        finder.walk(body)
        guard !finder.references.isEmpty || !finder.shorthandBindings.isEmpty else { return accessor }
        let renamer = DirectAccessRenamer(finder, storage: storage)
        return accessor.with(\.body, renamer.rewrite(body).cast(CodeBlockSyntax.self))
    }

    /// Whether the accessor's parameter, named or implicit, is called `property`.
    private static func binds(_ accessor: AccessorDeclSyntax, _ property: String) -> Bool {
        if let parameter = accessor.parameters?.name.identifierText { return parameter == property }
        switch accessor.accessorSpecifier.tokenKind {
        case .keyword(.willSet): return property == "newValue"
        case .keyword(.didSet): return property == "oldValue"
        default: return false
        }
    }
}

/// Applies what `DirectAccessFinder` found.
private final class DirectAccessRenamer: SyntaxRewriter {
    private let references: Set<SyntaxIdentifier>
    private let shorthandBindings: Set<SyntaxIdentifier>
    private let storage: String

    init(_ finder: DirectAccessFinder, storage: String) {
        references = finder.references
        shorthandBindings = finder.shorthandBindings
        self.storage = storage
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: DeclReferenceExprSyntax) -> ExprSyntax {
        guard references.contains(node.id) else { return ExprSyntax(node) }
        return ExprSyntax(node.with(\.baseName, node.baseName.with(\.tokenKind, .identifier(storage))))
    }

    override func visit(_ node: OptionalBindingConditionSyntax) -> OptionalBindingConditionSyntax {
        guard shorthandBindings.contains(node.id) else { return super.visit(node) }
        // `if let x {` becomes `if let x = _x {`.
        let pattern = node.pattern
        return
            node
            .with(\.pattern, pattern.with(\.trailingTrivia, .space))
            .with(
                \.initializer,
                InitializerClauseSyntax(
                    equal: .equalToken(trailingTrivia: .space),
                    value: DeclReferenceExprSyntax(
                        baseName: .identifier(storage, trailingTrivia: pattern.trailingTrivia))))
    }
}
