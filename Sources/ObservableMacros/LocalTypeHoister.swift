import SwiftSyntax

/// Moves the types declared inside a property's `willSet`/`didSet` into a namespace beside the
/// property (`private enum __$level { struct didSet_Helper … }`), renaming their uses.
///
/// Why: the observers move into the storage the macro generates, and Swift does not emit a type
/// declared in a function body that a macro generated (swiftlang/swift#88174: the build fails to
/// link). A type declared at class scope in macro-generated code is emitted. Hoisting keeps the
/// meaning: a local type cannot capture anything from the function around it, so as a nested type
/// of the class it resolves names as it did (the class's types and static members).
///
/// Renaming follows Swift's scoping of local types: one is visible in its whole block (before its
/// declaration too) and in the blocks inside, unless one of those declares something of the same
/// name. Type aliases move too, so that a moved type still finds one it uses.
struct LocalTypeHoister {
    /// The namespace's name (`__$level`).
    let namespace: String
    /// The moved declarations, renamed, for the namespace.
    private(set) var hoisted: [DeclSyntax] = []
    private var usedNames: Set<String> = []

    init(namespace: String) {
        self.namespace = namespace
    }

    /// The namespace declaration, or `nil` when nothing moved.
    var namespaceDeclaration: DeclSyntax? {
        guard !hoisted.isEmpty else { return nil }
        let members = hoisted.map { $0.trimmed.description }.joined(separator: "\n")
        return "private enum \(raw: namespace) {\n\(raw: members)\n}"
    }

    /// `accessor` without the type declarations in its body, which join `hoisted`.
    mutating func hoist(_ accessor: AccessorDeclSyntax) -> AccessorDeclSyntax {
        guard let body = accessor.body else { return accessor }
        let declarations = body.localTypeDeclarations
        guard !declarations.isEmpty else { return accessor }
        var newNames: [SyntaxIdentifier: String] = [:]
        for declaration in declarations {
            newNames[declaration.id] = uniqueName(accessor.accessorSpecifier.text + "_" + declaration.name.text)
        }
        let finder = LocalTypeReferenceFinder(newNames: newNames)
        finder.walk(body)
        let renamer = LocalTypeRenamer(namespace: namespace, references: finder.references, removed: Set(newNames.keys))
        for declaration in declarations {
            var moved = renamer.rewrite(declaration, detach: true).asProtocol(NamedDeclSyntax.self)!
            moved.name = .identifier(newNames[declaration.id]!)
            hoisted.append(DeclSyntax(moved)!)
        }
        return accessor.with(\.body, renamer.rewrite(body).cast(CodeBlockSyntax.self))
    }

    private mutating func uniqueName(_ base: String) -> String {
        var name = base
        var suffix = 2
        while usedNames.contains(name) {
            name = "\(base)_\(suffix)"
            suffix += 1
        }
        usedNames.insert(name)
        return name
    }
}

extension CodeBlockSyntax {
    /// The structs, classes, enums, actors and type aliases declared in the body (in closures and
    /// nested functions too), not counting those inside another such type (they move with it).
    fileprivate var localTypeDeclarations: [any NamedDeclSyntax] {
        final class Collector: SyntaxVisitor {
            var found: [any NamedDeclSyntax] = []
            private func take(_ node: some NamedDeclSyntax) -> SyntaxVisitorContinueKind {
                found.append(node)
                return .skipChildren
            }
            override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { take(node) }
            override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { take(node) }
            override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { take(node) }
            override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind { take(node) }
            override func visit(_ node: TypeAliasDeclSyntax) -> SyntaxVisitorContinueKind { take(node) }
        }
        let collector = Collector(viewMode: .sourceAccurate)
        collector.walk(self)
        return collector.found
    }
}

/// Finds the uses of the moved types, block by block (see `LocalTypeHoister`).
private final class LocalTypeReferenceFinder: SyntaxVisitor {
    private let newNames: [SyntaxIdentifier: String]
    /// What each name means in the current scope: a moved type's new name, or `nil` where something
    /// else of that name is declared.
    private var scope: [String: String?] = [:]
    /// Type and expression references to rename, with their new names.
    private(set) var references: [SyntaxIdentifier: String] = [:]

    init(newNames: [SyntaxIdentifier: String]) {
        self.newNames = newNames
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: CodeBlockItemListSyntax) -> SyntaxVisitorContinueKind {
        let outer = scope
        for item in node {
            guard case .decl(let declaration) = item.item else { continue }
            if let moved = newNames[declaration.id], let named = declaration.asProtocol(NamedDeclSyntax.self) {
                scope[named.name.text] = .some(moved)
            } else if let named = declaration.asProtocol(NamedDeclSyntax.self) {
                scope[named.name.text] = .some(nil)
            } else if let variable = declaration.as(VariableDeclSyntax.self) {
                for binding in variable.bindings {
                    for token in binding.pattern.tokens(viewMode: .sourceAccurate)
                    where token.parent?.is(IdentifierPatternSyntax.self) == true {
                        scope[token.text] = .some(nil)
                    }
                }
            }
        }
        for item in node { walk(item) }
        scope = outer
        return .skipChildren
    }

    override func visit(_ node: IdentifierTypeSyntax) -> SyntaxVisitorContinueKind {
        if let newName = scope[node.name.text], let newName { references[node.id] = newName }
        return .visitChildren
    }

    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
        if let newName = scope[node.baseName.text], let newName { references[node.id] = newName }
        return .skipChildren
    }

    override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
        // `x.Helper` names a member of `x`, not the local type.
        if let base = node.base { walk(base) }
        return .skipChildren
    }
}

/// Applies what `LocalTypeReferenceFinder` found and removes the moved declarations.
private final class LocalTypeRenamer: SyntaxRewriter {
    private let namespace: String
    private let references: [SyntaxIdentifier: String]
    private let removed: Set<SyntaxIdentifier>

    init(namespace: String, references: [SyntaxIdentifier: String], removed: Set<SyntaxIdentifier>) {
        self.namespace = namespace
        self.references = references
        self.removed = removed
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: CodeBlockItemListSyntax) -> CodeBlockItemListSyntax {
        // Positions first: the items keep their identities only until the list is rewritten.
        let removedPositions = Set(
            node.enumerated().compactMap { position, item -> Int? in
                guard case .decl(let declaration) = item.item, removed.contains(declaration.id) else { return nil }
                return position
            })
        let visited = super.visit(node)
        guard !removedPositions.isEmpty else { return visited }
        return CodeBlockItemListSyntax(
            visited.enumerated().filter { !removedPositions.contains($0.offset) }.map(\.element))
    }

    override func visit(_ node: IdentifierTypeSyntax) -> TypeSyntax {
        guard let newName = references[node.id] else { return super.visit(node) }
        let visited = super.visit(node).cast(IdentifierTypeSyntax.self)
        return TypeSyntax(
            MemberTypeSyntax(
                leadingTrivia: node.leadingTrivia,
                baseType: IdentifierTypeSyntax(name: .identifier(namespace)),
                name: .identifier(newName),
                genericArgumentClause: visited.genericArgumentClause,
                trailingTrivia: node.trailingTrivia))
    }

    override func visit(_ node: DeclReferenceExprSyntax) -> ExprSyntax {
        guard let newName = references[node.id] else { return ExprSyntax(node) }
        return ExprSyntax(
            MemberAccessExprSyntax(
                leadingTrivia: node.leadingTrivia,
                base: DeclReferenceExprSyntax(baseName: .identifier(namespace)),
                declName: DeclReferenceExprSyntax(baseName: .identifier(newName)),
                trailingTrivia: node.trailingTrivia))
    }
}
