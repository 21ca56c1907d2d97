import SwiftDiagnostics
import SwiftSyntax

/// What `@KeyValueObservable` checks in an initializer of its class: where a write to an observed
/// property runs the property's own `willSet`/`didSet`, which a plain stored property's never would.
///
/// An observed property is computed, with an `init` accessor. Swift assigns through that accessor,
/// which only initializes the storage, while the instance is not yet fully initialized; once every
/// stored property is (for a subclass, after `super.init`), it calls the setter, and the observers
/// run, as they do for `@Observable`'s properties. A plain stored property is stored directly by its
/// own class's initializers, at any point. Only writes the macro can tell apart are reported: `=`, a
/// compound assignment and `&` (a method call may or may not mutate), in the initializer's own body
/// (closures and nested functions reach the property through its accessors in plain Swift too).
extension InitializerDeclSyntax {
    /// A warning, with a fix-it storing to the property's storage, at each write to an observed
    /// property of `owner` that has `willSet` or `didSet`, made where every stored property is surely
    /// initialized. Where that cannot be told (a stored property inside `#if` or with a property
    /// wrapper, a class whose first inherited type may be a superclass), only writes after
    /// `super.init` or `self.init` are reported.
    func writesRunningObservers(in owner: ClassDeclSyntax) -> [Diagnostic] {
        guard let statements = body?.statements else { return [] }
        let watched = owner.observedPropertiesWithObservers
        guard !watched.isEmpty else { return [] }
        let parameters = Set(
            signature.parameterClause.parameters.compactMap { ($0.secondName ?? $0.firstName).identifierText })
        func writes(of name: String) -> [InitializerWrite] {
            let finder = DirectAccessFinder(property: name, shadowedFromStart: parameters.contains(name))
            finder.walk(statements)
            return finder.referenceNodes.compactMap { InitializerWrite($0, in: statements) }
        }

        // Before each statement: whether the instance is surely fully initialized there.
        let delegation = statements.firstIndex { $0.callsDelegatingInitializer }.map {
            statements.distance(from: statements.startIndex, to: $0)
        }
        let storage = owner.storedPropertiesForInitialization
        let countsStoredProperties =
            delegation == nil && owner.isSurelyRoot
            && !modifiers.contains { $0.name.tokenKind == .keyword(.convenience) }
            && storage.allKnown
        var initialized = [Bool](repeating: false, count: statements.count + 1)
        if countsStoredProperties {
            var remaining = Set(storage.uninitialized)
            var assigned: [Int: Set<String>] = [:]
            for name in remaining {
                for write in writes(of: name) where write.initializesWholeProperty {
                    assigned[write.statement, default: []].insert(name)
                }
            }
            var done = remaining.isEmpty
            for index in 0...statements.count {
                initialized[index] = done
                guard index < statements.count else { break }
                remaining.subtract(assigned[index] ?? [])
                done = done || remaining.isEmpty
            }
        } else if let delegation {
            for index in (delegation + 1)...statements.count { initialized[index] = true }
        }
        // A `defer` runs when the initializer returns: initialized if it surely is by then.
        let initializedAtEnd = initialized[statements.count]

        var diagnostics: [Diagnostic] = []
        for property in watched {
            for write in writes(of: property.name) where write.isWrite {
                guard write.isDeferred ? initializedAtEnd : initialized[write.statement] else { continue }
                diagnostics.append(property.warning(at: write.reference))
            }
        }
        return diagnostics
    }
}

/// A reference to a property in an initializer's body, and what it does there.
private struct InitializerWrite {
    let reference: DeclReferenceExprSyntax
    /// The initializer's statement that contains it.
    let statement: Int
    /// Whether it is written: assigned, compound-assigned or passed `inout`, itself or a part of it.
    let isWrite: Bool
    /// Whether the statement is `self.x = …` (or `x = …`): it initializes the whole property.
    let initializesWholeProperty: Bool
    /// Whether it is inside the statement's `defer`, which runs when the initializer returns.
    let isDeferred: Bool

    init?(_ reference: DeclReferenceExprSyntax, in statements: CodeBlockItemListSyntax) {
        guard
            let index = statements.firstIndex(where: {
                $0.position <= reference.position && reference.endPosition <= $0.endPosition
            })
        else { return nil }
        let item = statements[index]
        self.reference = reference
        self.statement = statements.distance(from: statements.startIndex, to: index)
        // `self.x` or `x`, then what is written through it: `self.x.y`, `self.x[0]`, `self.x?.y`.
        var access = Syntax(reference)
        if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id {
            access = Syntax(member)
        }
        let whole = access
        while let parent = access.parent {
            if let member = parent.as(MemberAccessExprSyntax.self), member.base?.id == access.id {
                access = parent
            } else if let subscriptCall = parent.as(SubscriptCallExprSyntax.self),
                subscriptCall.calledExpression.id == access.id
            {
                access = parent
            } else if parent.is(OptionalChainingExprSyntax.self) || parent.is(ForceUnwrapExprSyntax.self) {
                access = parent
            } else {
                break
            }
        }
        let assignment = access.assignment
        isWrite = assignment != nil || access.parent?.is(InOutExprSyntax.self) == true
        initializesWholeProperty =
            assignment == .plain && access.id == whole.id
            && item.item.as(ExprSyntax.self)?.assignedExpression?.id == access.id
        isDeferred = item.item.is(DeferStmtSyntax.self)
    }
}

private enum AssignmentKind { case plain, compound }

extension Syntax {
    /// How the expression is assigned to, if it is the left side of `=` or of a compound assignment
    /// (`+=`), in an operator sequence as the compiler passes it to a macro, or folded.
    fileprivate var assignment: AssignmentKind? {
        if let list = parent?.as(ExprListSyntax.self), let index = list.firstIndex(where: { $0.id == id }) {
            let next = list.index(after: index)
            return next == list.endIndex ? nil : Syntax(list[next]).assignmentOperator
        }
        if let infix = parent?.as(InfixOperatorExprSyntax.self), infix.leftOperand.id == id {
            return Syntax(infix.operator).assignmentOperator
        }
        return nil
    }

    /// `=` or a compound assignment operator (an operator ending in `=` that is not a comparison).
    private var assignmentOperator: AssignmentKind? {
        if self.is(AssignmentExprSyntax.self) { return .plain }
        guard let text = self.as(BinaryOperatorExprSyntax.self)?.operator.text, text.hasSuffix("="),
            !["==", "!=", "<=", ">=", "===", "!=="].contains(text)
        else { return nil }
        return .compound
    }
}

extension ExprSyntax {
    /// The left side of the assignment this statement is (`self.x = 1`, `try self.x = f()`).
    fileprivate var assignedExpression: ExprSyntax? {
        if let tried = self.as(TryExprSyntax.self) { return tried.expression.assignedExpression }
        if let awaited = self.as(AwaitExprSyntax.self) { return awaited.expression.assignedExpression }
        if let sequence = self.as(SequenceExprSyntax.self), sequence.elements.count == 3 {
            let elements = Array(sequence.elements)
            return elements[1].is(AssignmentExprSyntax.self) ? elements[0] : nil
        }
        if let infix = self.as(InfixOperatorExprSyntax.self), infix.operator.is(AssignmentExprSyntax.self) {
            return infix.leftOperand
        }
        return nil
    }
}

extension CodeBlockItemSyntax {
    /// Whether the statement calls `super.init` or `self.init` (not in a closure): after it, the
    /// instance is fully initialized.
    fileprivate var callsDelegatingInitializer: Bool {
        let finder = DelegatingInitializerFinder(viewMode: .sourceAccurate)
        finder.walk(self)
        return finder.found
    }
}

private final class DelegatingInitializerFinder: SyntaxVisitor {
    var found = false

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if let called = node.calledExpression.as(MemberAccessExprSyntax.self),
            called.declName.baseName.tokenKind == .keyword(.`init`), let base = called.base,
            base.is(SuperExprSyntax.self)
                || base.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self)
        {
            found = true
        }
        return found ? .skipChildren : .visitChildren
    }

    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
}

/// An observed property with `willSet` or `didSet`, as the initializer check needs it.
struct PropertyWithObservers {
    let name: String
    /// `'didSet'`, `'willSet'` or both, as the warning names them.
    let observers: String

    func warning(at reference: DeclReferenceExprSyntax) -> Diagnostic {
        let storage = ObservedMacro.Names.storage(of: name)
        return Diagnostic(
            node: Syntax(reference),
            message: ObservedDiagnostic.initializerRunsObservers(property: name, observers: observers),
            fixIt: FixIt(
                message: ObservedFixIt.storeToStorage(storage),
                changes: [
                    .replace(
                        oldNode: Syntax(reference),
                        newNode: Syntax(
                            reference.with(\.baseName, reference.baseName.with(\.tokenKind, .identifier(storage)))))
                ]))
    }
}

/// The class's stored instance properties as an initializer must initialize them.
struct StoredPropertiesForInitialization {
    /// Those without an initial value (explicit, or the `nil` of an optional `var`).
    var uninitialized: [String] = []
    /// Whether every one is known: none inside `#if`, none with a property wrapper and no initial value.
    var allKnown = true
}

extension ClassDeclSyntax {
    /// The properties the class observes (marked by `@KeyValueObservable` or written `@Observed`,
    /// overrides aside, which have no storage of their own) that have `willSet` or `didSet`.
    var observedPropertiesWithObservers: [PropertyWithObservers] {
        allMemberVariables.compactMap { property in
            // The observers first: most properties have none, and asking whether one is observed costs more.
            guard case .accessors(let accessors) = property.observedBinding?.accessorBlock?.accessors else {
                return nil
            }
            let kinds = accessors.map(\.accessorSpecifier.tokenKind)
            let observers = [Keyword.willSet, .didSet].filter { kinds.contains(.keyword($0)) }.map { "'\($0)'" }
            guard !observers.isEmpty, let name = property.observedIdentifier?.identifierText,
                KeyValueObservableMacro.marking(of: property, in: self).isObserved
                    || (property.hasAttribute(named: ["Observed"]) && !property.hasModifier(.override))
            else { return nil }
            return PropertyWithObservers(name: name, observers: observers.joined(separator: " and "))
        }
    }

    var storedPropertiesForInitialization: StoredPropertiesForInitialization {
        var result = StoredPropertiesForInitialization()
        for member in memberBlock.members {
            if let property = member.decl.as(VariableDeclSyntax.self) {
                result.add(property)
            } else {
                // Which clause is compiled is unknown: a property there that needs initializing may or may not exist.
                var inClauses = StoredPropertiesForInitialization()
                for variable in member.decl.storedVariables { inClauses.add(variable) }
                if !inClauses.uninitialized.isEmpty || !inClauses.allKnown { result.allKnown = false }
            }
        }
        return result
    }

    /// The variables declared in the braces, inside `#if` too.
    private var allMemberVariables: [VariableDeclSyntax] {
        memberBlock.members.flatMap { member in
            member.decl.as(VariableDeclSyntax.self).map { [$0] } ?? member.decl.storedVariables
        }
    }
}

extension StoredPropertiesForInitialization {
    fileprivate mutating func add(_ property: VariableDeclSyntax) {
        guard !property.hasModifier(.static), !property.hasModifier(.class), !property.hasModifier(.lazy),
            !property.isComputed
        else { return }
        let isVar = property.bindingSpecifier.tokenKind == .keyword(.var)
        let wrapped = property.hasPropertyWrapper(besides: KeyValueObservableMacro.observed)
        for binding in property.bindings {
            guard binding.initializer == nil, !(isVar && binding.typeAnnotation?.type.isOptional == true) else {
                continue
            }
            guard !wrapped, let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.identifierText
            else {
                allKnown = false
                continue
            }
            uninitialized.append(name)
        }
    }
}

extension DeclSyntax {
    /// The variables declared in the clauses of an `#if`, any depth.
    fileprivate var storedVariables: [VariableDeclSyntax] {
        guard let ifConfig = self.as(IfConfigDeclSyntax.self) else { return [] }
        return ifConfig.clauses.flatMap { clause -> [VariableDeclSyntax] in
            guard case .decls(let members) = clause.elements else { return [] }
            return members.flatMap { $0.decl.as(VariableDeclSyntax.self).map { [$0] } ?? $0.decl.storedVariables }
        }
    }
}
