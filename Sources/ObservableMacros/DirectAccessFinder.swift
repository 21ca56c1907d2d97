import SwiftSyntax

/// Finds the references to a property of `self` in a body that is not a function of its own: `self.x`
/// and an unshadowed bare `x`, walking in source order with the scope of each local name that
/// shadows the property. Closures, nested functions and types are skipped: they reach the property
/// through its accessors. Inside one of the property's observers these are the references Swift
/// resolves to its storage (`ObserverBodyRewriter`); inside an initializer, those that initialize
/// or set it (`InitializerDeclSyntax+Observed`).
final class DirectAccessFinder: SyntaxVisitor {
    private let property: String
    /// Whether a bare `property` names something local at the current point.
    private var shadowed: Bool
    /// The `DeclReferenceExprSyntax` nodes that refer to the property, by identity and in source order.
    private(set) var references: Set<SyntaxIdentifier> = []
    private(set) var referenceNodes: [DeclReferenceExprSyntax] = []
    /// `if let x` / `guard let x` shorthands, which read the property: they get `= storage`.
    private(set) var shorthandBindings: Set<SyntaxIdentifier> = []

    init(property: String, shadowedFromStart: Bool) {
        self.property = property
        self.shadowed = shadowedFromStart
        super.init(viewMode: .sourceAccurate)
    }

    // MARK: References

    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
        if !shadowed, names(node) { record(node) }
        return .skipChildren
    }

    override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
        // `self.x` is the property whatever is local, and so is every spelling of `self` as the base
        // (`(self).x`, `self.self.x`); `other.x`, `super.x` and `.x` are not.
        if let base = node.base {
            if base.isSelf, names(node.declName) { record(node.declName) }
            walk(base)
        }
        return .skipChildren
    }

    /// `\.x` names the property (through its accessors), not the storage.
    override func visit(_ node: KeyPathPropertyComponentSyntax) -> SyntaxVisitorContinueKind {
        .skipChildren
    }

    private func record(_ reference: DeclReferenceExprSyntax) {
        references.insert(reference.id)
        referenceNodes.append(reference)
    }

    private func names(_ reference: DeclReferenceExprSyntax) -> Bool {
        reference.argumentNames == nil && reference.baseName.identifierText == property
    }

    // MARK: Other functions: Swift accesses the property through its accessors there

    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
        // A capture list's initialisers are evaluated here, when the closure is formed.
        if let capture = node.signature?.capture { walk(capture) }
        return .skipChildren
    }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: AccessorBlockSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: TypeAliasDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

    // MARK: Scopes

    override func visit(_ node: CodeBlockItemListSyntax) -> SyntaxVisitorContinueKind {
        let outer = shadowed
        // Local functions and types are visible in their whole block, before their declaration too.
        if node.contains(where: { declaresHoisted($0.item) }) { shadowed = true }
        for item in node { walk(item) }
        // Declarations inside `#if` belong to the enclosing block.
        if node.parent?.is(IfConfigClauseSyntax.self) != true { shadowed = outer }
        return .skipChildren
    }

    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
        // Each binding is visible from the next one on; its own initialiser still sees the property.
        for binding in node.bindings {
            if let initializer = binding.initializer { walk(initializer) }
            if binding.pattern.binds(property) { shadowed = true }
        }
        return .skipChildren
    }

    override func visit(_ node: IfExprSyntax) -> SyntaxVisitorContinueKind {
        inScope {
            walkConditions(node.conditions)
            walk(node.body)
        }
        if let elseBody = node.elseBody { walk(elseBody) }
        return .skipChildren
    }

    override func visit(_ node: GuardStmtSyntax) -> SyntaxVisitorContinueKind {
        let outer = shadowed
        walkConditions(node.conditions)
        let afterGuard = shadowed
        shadowed = outer
        walk(node.body)
        // The bindings are visible in the rest of the enclosing block, not in `else`.
        shadowed = afterGuard
        return .skipChildren
    }

    override func visit(_ node: WhileStmtSyntax) -> SyntaxVisitorContinueKind {
        inScope {
            walkConditions(node.conditions)
            walk(node.body)
        }
        return .skipChildren
    }

    override func visit(_ node: ForStmtSyntax) -> SyntaxVisitorContinueKind {
        walk(node.sequence)
        inScope {
            walkBinding(node.pattern, where: node.whereClause)
            walk(node.body)
        }
        return .skipChildren
    }

    override func visit(_ node: SwitchCaseSyntax) -> SyntaxVisitorContinueKind {
        inScope {
            if case .case(let label) = node.label {
                for item in label.caseItems { walkBinding(item.pattern, where: item.whereClause) }
            }
            walk(node.statements)
        }
        return .skipChildren
    }

    override func visit(_ node: CatchClauseSyntax) -> SyntaxVisitorContinueKind {
        inScope {
            // A bare `catch` binds `error`.
            if node.catchItems.isEmpty, property == "error" { shadowed = true }
            for item in node.catchItems {
                if let pattern = item.pattern { walkBinding(pattern, where: item.whereClause) }
            }
            walk(node.body)
        }
        return .skipChildren
    }

    /// Runs `body`, then forgets the names it bound.
    private func inScope(_ body: () -> Void) {
        let outer = shadowed
        body()
        shadowed = outer
    }

    /// A pattern (whose expression parts read names) and the `where` clause that sees its bindings.
    private func walkBinding(_ pattern: PatternSyntax, where whereClause: WhereClauseSyntax?) {
        walk(pattern)
        if pattern.binds(property) { shadowed = true }
        if let whereClause { walk(whereClause) }
    }

    /// Walks `if`/`guard`/`while` conditions in order: each binding is visible in the conditions
    /// after it and in the body.
    private func walkConditions(_ conditions: ConditionElementListSyntax) {
        for element in conditions {
            if let binding = element.condition.as(OptionalBindingConditionSyntax.self) {
                if let initializer = binding.initializer {
                    walk(initializer)
                } else if !shadowed, binding.pattern.binds(property) {
                    shorthandBindings.insert(binding.id)
                }
                if binding.pattern.binds(property) { shadowed = true }
            } else if let match = element.condition.as(MatchingPatternConditionSyntax.self) {
                walk(match.initializer)
                walk(match.pattern)
                if match.pattern.binds(property) { shadowed = true }
            } else {
                walk(element)
            }
        }
    }

    private func declaresHoisted(_ item: CodeBlockItemSyntax.Item) -> Bool {
        guard case .decl(let decl) = item else { return false }
        // Functions, types and type aliases.
        return decl.asProtocol(NamedDeclSyntax.self)?.name.identifierText == property
    }
}

extension ExprSyntax {
    /// Whether the expression is `self`, in parentheses or followed by `.self` any number of times.
    var isSelf: Bool {
        if let reference = self.as(DeclReferenceExprSyntax.self) {
            return reference.baseName.tokenKind == .keyword(.self)
        }
        if let parenthesized = self.as(TupleExprSyntax.self), parenthesized.elements.count == 1,
            let only = parenthesized.elements.first, only.label == nil
        {
            return only.expression.isSelf
        }
        if let member = self.as(MemberAccessExprSyntax.self), member.declName.baseName.tokenKind == .keyword(.self),
            member.declName.argumentNames == nil, let base = member.base
        {
            return base.isSelf
        }
        return false
    }
}

extension PatternSyntax {
    /// Whether the pattern introduces a name `name` (`x`, `(x, _)`, `.some(let x)`, `x?`).
    func binds(_ name: String) -> Bool {
        tokens(viewMode: .sourceAccurate).contains { token in
            token.identifierText == name && token.parent?.is(IdentifierPatternSyntax.self) == true
        }
    }
}
