import SwiftBasicFormat
import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

extension VariableDeclSyntax {
    /// The single binding of an eligible declaration.
    var observedBinding: PatternBindingSyntax? {
        bindings.count == 1 ? bindings.first : nil
    }

    /// The declared name as written (backticks kept) of an eligible declaration.
    var observedIdentifier: TokenSyntax? {
        observedBinding?.pattern.as(IdentifierPatternSyntax.self)?.identifier.withoutTrivia
    }

    func hasModifier(_ keyword: Keyword) -> Bool {
        modifiers.contains { $0.name.tokenKind == .keyword(keyword) }
    }

    /// Whether a string key path reaches the property: `@Observed(stringKey:)` if written, else
    /// whether it is declared `internal` or wider (a restricted setter, `private(set)`, aside).
    var hasStringKey: Bool {
        for element in attributes {
            guard case .attribute(let attribute) = element,
                attribute.attributeName.textWithoutTrivia.split(separator: ".").last == "Observed"
            else { continue }
            if let chosen = ObservedOptions.parse(attribute).0.stringKey { return chosen }
        }
        return !modifiers.contains { modifier in
            modifier.detail == nil
                && (modifier.name.tokenKind == .keyword(.private) || modifier.name.tokenKind == .keyword(.fileprivate))
        }
    }

    /// Whether one of `names` is written as an attribute, with or without its module
    /// (`@Observed`, `@ObservableCore.Observed`).
    func hasAttribute(named names: Set<String>) -> Bool {
        attributes.contains { element in
            guard case .attribute(let attribute) = element,
                let name = attribute.attributeName.textWithoutTrivia.split(separator: ".").last
            else { return false }
            return names.contains(String(name))
        }
    }

    /// `true` when the binding has accessors other than `willSet`/`didSet` (which still mean stored).
    var isComputed: Bool {
        bindings.first?.isComputed ?? false
    }

    /// Several bindings or a tuple pattern: the compiler never runs accessor macros on these (it
    /// reports "can only apply to a single variable"), so only the peer role can explain them.
    var isSingleIdentifierBinding: Bool {
        bindings.count == 1 && bindings.first?.pattern.is(IdentifierPatternSyntax.self) == true
    }

    /// Whether this is the storage `@Observable` writes for a property marked `@Observed`: a copy
    /// carrying the attribute, marked `@ObservationIgnored`, outside the class.
    func isObservationStorageCopy(lexicalContext: [Syntax]) -> Bool {
        hasAttribute(named: ["ObservationIgnored"]) && lexicalContext.first?.is(ClassDeclSyntax.self) != true
    }

    /// Whether `@Observable` on the class makes this property computed itself (a stored instance `var`
    /// it does not ignore), so that the storage it writes copies `@Observed` (see
    /// `isObservationStorageCopy`).
    func isTrackedByObservableMacro(lexicalContext: [Syntax]) -> Bool {
        guard lexicalContext.first?.as(ClassDeclSyntax.self)?.hasObservableMacro == true else { return false }
        return bindingSpecifier.tokenKind == .keyword(.var) && isSingleIdentifierBinding && !isComputed
            && !hasModifier(.static) && !hasModifier(.class)
            && !hasAttribute(named: ["ObservationIgnored", "ObservationTracked"])
    }

    /// The eligibility predicate of `@Observed`: every reason this declaration cannot be observed,
    /// as diagnostics anchored on the offending syntax, with fix-its where the mend is mechanical.
    func observedProblems(attribute: AttributeSyntax, lexicalContext: [Syntax]) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        func report(_ node: some SyntaxProtocol, _ message: ObservedDiagnostic, fixIts: [FixIt] = []) {
            problems.append(Diagnostic(node: Syntax(node), message: message, fixIts: fixIts))
        }

        if let detail = Self.containerProblem(lexicalContext) {
            report(attribute, .invalidContainer(detail: detail))
        }
        if let container = lexicalContext.first?.as(ClassDeclSyntax.self) {
            if container.hasObservableMacro {
                report(attribute, .observableMacroOnClass)
            } else if !container.hasKeyValueObservableAttribute,
                let coding = CodableConformance.declaredProtocol(of: container)
            {
                // (No fix-it: the compiler gives a property's macro no source location for its class.)
                report(attribute, .codableNeedsClassAttribute(className: container.name.text, protocol: coding))
            }
        }
        if bindingSpecifier.tokenKind == .keyword(.let) {
            report(
                bindingSpecifier, .letConstant,
                fixIts: [
                    FixIt(
                        message: ObservedFixIt.replaceLetWithVar,
                        changes: [
                            .replace(
                                oldNode: Syntax(bindingSpecifier),
                                newNode: Syntax(bindingSpecifier.with(\.tokenKind, .keyword(.var))))
                        ])
                ])
        }
        for modifier in modifiers {
            switch modifier.name.tokenKind {
            case .keyword(.static), .keyword(.class):
                report(modifier, .typeProperty(keyword: modifier.name.text))
            case .keyword(.lazy):
                report(
                    modifier, .lazyProperty,
                    fixIts: [
                        FixIt(
                            message: ObservedFixIt.removeLazy,
                            changes: [
                                .replace(
                                    oldNode: Syntax(modifiers),
                                    newNode: Syntax(modifiers.filter { $0.name.tokenKind != .keyword(.lazy) }))
                            ])
                    ])
            case .keyword(.nonisolated):
                let isolation = Self.globalActor(of: lexicalContext.first)
                if modifier.detail?.detail.text == "unsafe" {
                    // Without the class's isolation, plain 'nonisolated' means the same here.
                    let fixIts =
                        isolation != nil
                        ? []
                        : [
                            FixIt(
                                message: ObservedFixIt.removeUnsafe,
                                changes: [
                                    .replace(
                                        oldNode: Syntax(modifier),
                                        newNode: Syntax(
                                            modifier.with(\.detail, nil).with(
                                                \.trailingTrivia, modifier.trailingTrivia)))
                                ])
                        ]
                    report(modifier, .nonisolatedUnsafe, fixIts: fixIts)
                } else if let isolation {
                    report(modifier, .nonisolatedInIsolatedClass(isolation: isolation))
                }
            default:
                break
            }
        }
        for case .attribute(let other) in attributes where Self.isPropertyWrapper(other, besides: attribute) {
            let name = other.attributeName.textWithoutTrivia
            if ["ObservationTracked", "ObservationIgnored"].contains(name.split(separator: ".").last.map(String.init)) {
                report(other, .observationAttribute(name: name))
            } else {
                report(other, .propertyWrapper(name: name))
            }
        }
        problems += ObservedOptions.parse(attribute).1
        if hasModifier(.override), let binding = bindings.first, bindings.count == 1 {
            if let initializer = binding.initializer {
                report(initializer, .overrideWithInitialValue)
            }
            if case .accessors(let accessors) = binding.accessorBlock?.accessors, !isComputed,
                let first = accessors.first
            {
                report(first.accessorSpecifier, .overrideWithObservers)
            }
        }
        if bindings.count > 1 {
            report(bindings.dropFirst().first!, .multipleBindings, fixIts: splitFixIt.map { [$0] } ?? [])
        } else if let binding = bindings.first {
            if binding.pattern.is(TuplePatternSyntax.self) {
                report(binding.pattern, .tuplePattern)
            } else if isComputed {
                report(binding.pattern, .computedProperty)
            } else if let type = binding.typeAnnotation?.type, type.containsOpaqueType {
                report(type, .opaqueType(type: type.trimmedDescription))

            } else if binding.typeAnnotation == nil, binding.initializer == nil {
                report(
                    binding.pattern, .missingTypeAndInitializer(name: binding.pattern.trimmedDescription),
                    fixIts: [
                        FixIt(
                            message: ObservedFixIt.addTypeAnnotation,
                            changes: [
                                .replace(
                                    oldNode: Syntax(binding),
                                    newNode: Syntax(
                                        binding.with(
                                            \.typeAnnotation,
                                            TypeAnnotationSyntax(
                                                colon: .colonToken(trailingTrivia: .space),
                                                type: IdentifierTypeSyntax(name: .identifier("<#Type#>"))
                                            ))))
                            ])
                    ])
            }
        }
        return problems
    }

    /// Why the innermost declaration around the property is not a class, or `nil` when it is one.
    /// An empty detail means "not inside a type at all".
    private static func containerProblem(_ lexicalContext: [Syntax]) -> String?? {
        guard let container = lexicalContext.first else { return .some(nil) }
        if container.is(ClassDeclSyntax.self) { return nil }
        if let decl = container.as(StructDeclSyntax.self) { return "'\(decl.name.text)' is a struct" }
        if let decl = container.as(EnumDeclSyntax.self) { return "'\(decl.name.text)' is an enum" }
        if let decl = container.as(ActorDeclSyntax.self) { return "'\(decl.name.text)' is an actor" }
        if let decl = container.as(ProtocolDeclSyntax.self) { return "'\(decl.name.text)' is a protocol" }
        if container.is(ExtensionDeclSyntax.self) { return "stored properties cannot be declared in an extension" }
        return .some(nil)
    }

    /// Whether another custom attribute, taken for a property wrapper, is on the declaration.
    func hasPropertyWrapper(besides observed: AttributeSyntax) -> Bool {
        attributes.contains { element in
            guard case .attribute(let other) = element else { return false }
            return Self.isPropertyWrapper(other, besides: observed)
        }
    }

    /// Whether the property's type may be a generic parameter of an enclosing declaration or built
    /// from one (`T`, `[T]`): then the runtime, not overload resolution, finds out what it is. An
    /// inferred type in a generic context counts, as it may be.
    func mayHaveGenericType(in lexicalContext: [Syntax]) -> Bool {
        let parameters = Set(
            lexicalContext.flatMap { context in
                (context.asProtocol(WithGenericParametersSyntax.self)?.genericParameterClause?.parameters).map {
                    $0.map(\.name.text)
                } ?? []
            })
        guard !parameters.isEmpty else { return false }
        guard let type = observedBinding?.typeAnnotation?.type else { return true }
        return type.tokens(viewMode: .sourceAccurate).contains { parameters.contains($0.text) }
    }

    /// Whether the accessors get an `init`: always, also with an initial value (which the storage
    /// keeps), so that an initializer may assign the property before the class's other stored
    /// properties are set, as it may a plain stored property. Not for an override (no storage of its
    /// own), nor for a property isolated to a global actor the class is not, which has an initial
    /// value: an `init` accessor would be isolated to that actor too, and so would the class's
    /// implicit initializer, which cannot be (the storage keeps the value, nonisolated, instead).
    func observedHasInitAccessor(in lexicalContext: [Syntax]) -> Bool {
        if hasModifier(.override) { return false }
        guard let actor = ownGlobalActor, observedBinding?.initializer != nil else { return true }
        return actor == Self.globalActor(of: lexicalContext.first)
    }

    /// The global actor the property itself is marked with (`@MainActor var`), if any.
    private var ownGlobalActor: String? {
        for case .attribute(let attribute) in attributes {
            let name = attribute.attributeName.textWithoutTrivia
            if let last = name.split(separator: ".").last, last.hasSuffix("Actor") { return String(last) }
        }
        return nil
    }

    /// The global actor a class declares itself isolated to (`@MainActor`), if it says so. An
    /// isolation inferred from elsewhere is not visible to a macro; the compiler then reports it.
    private static func globalActor(of container: Syntax?) -> String? {
        guard let attributes = container?.as(ClassDeclSyntax.self)?.attributes else { return nil }
        for case .attribute(let attribute) in attributes {
            let name = attribute.attributeName.textWithoutTrivia
            if let last = name.split(separator: ".").last, last.hasSuffix("Actor") { return String(last) }
        }
        return nil
    }

    /// Custom attributes are property wrappers unless they are this macro or a global actor.
    /// Built-in attributes (`@available`, `@objc`, …) start with a lowercase letter or an underscore.
    private static func isPropertyWrapper(_ attribute: AttributeSyntax, besides observed: AttributeSyntax) -> Bool {
        if attribute == observed { return false }
        let name = attribute.attributeName.textWithoutTrivia
        let last = name.split(separator: ".").last.map(String.init) ?? name
        guard let first = last.first, first.isUppercase else { return false }
        return last != "Observed" && last != "Unobserved" && !last.hasSuffix("Actor")
    }

    /// Rewrites `var a = 1, b: Int` as one `@Observed` declaration per binding; a binding without a
    /// type annotation borrows the next one's (`var a, b: Int` declares both as `Int`).
    private var splitFixIt: FixIt? {
        let list = Array(bindings)
        guard list.allSatisfy({ $0.pattern.is(IdentifierPatternSyntax.self) }) else { return nil }
        let indentation = leadingTrivia.reversed().prefix { !$0.isNewline }.reversed()
        var declarations: [String] = []
        for (index, binding) in list.enumerated() {
            var single = binding.with(\.trailingComma, nil).trimmed
            if single.typeAnnotation == nil, single.initializer == nil,
                let borrowed = list[index...].lazy.compactMap(\.typeAnnotation).first
            {
                single = single.with(\.typeAnnotation, borrowed.trimmed)
            }
            let declaration = with(\.bindings, [single]).with(\.leadingTrivia, []).with(\.trailingTrivia, [])
            declarations.append(declaration.description)
        }
        let separator = "\n" + Trivia(pieces: Array(indentation)).description
        let replacement: DeclSyntax =
            "\(leadingTrivia)\(raw: declarations.joined(separator: separator))\(trailingTrivia)"
        return FixIt(
            message: ObservedFixIt.splitDeclaration,
            changes: [
                .replace(oldNode: Syntax(self), newNode: Syntax(replacement))
            ])
    }

    /// The backing storage: private, same type, initial value and ownership (`weak`, `unowned`),
    /// carrying the user's `willSet`/`didSet`, in which the references Swift resolves to the storage
    /// are redirected to it (see `ObserverBodyRewriter`). That keeps Swift's rule that a property
    /// assigned inside its own observer is stored directly, without running the observers (or
    /// notifying) again.
    ///
    /// Types declared inside the observers move to a namespace beside the storage (see
    /// `LocalTypeHoister`), returned as the second declaration when there are any. Laid out for the
    /// expansion.
    /// `listed`: `@KeyValueObservable`'s list names the storage by key path, so it is declared
    /// `nonisolated(unsafe)` (see `PropertyList`).
    func observedStorage(named storage: String, property: String, listed: Bool = false) -> [DeclSyntax] {
        let binding = observedBinding!
        // Arrays, not filtered syntax collections: filtering a collection builds a new node.
        let kept = Array(modifiers).filter { modifier in
            switch modifier.name.tokenKind {
            case .keyword(.weak), .keyword(.unowned), .keyword(.nonisolated): true
            default: false
            }
        }
        let availability = Array(attributes).filter {
            if case .attribute(let attribute) = $0 { return attribute.attributeName.textWithoutTrivia == "available" }
            return false
        }
        // The common case, laid out as text (see `LaidOutSyntax`): the user's type and initial
        // value as written inside, spaced as the formatter spaces them around.
        if binding.accessorBlock == nil, availability.isEmpty {
            let modifiers = (["private"] + (listed ? ["nonisolated(unsafe)"] : []) + kept.map(\.textWithoutTrivia))
                .joined(separator: " ")
            let type = binding.typeAnnotation.map { ": " + $0.type.textWithoutTrivia } ?? ""
            let initializer = binding.initializer.map { " = " + $0.value.textWithoutTrivia } ?? ""
            return [LaidOutSyntax.declaration("\(modifiers) var \(storage)\(type)\(initializer)")]
        }
        var observers: AccessorBlockSyntax?
        var hoister = LocalTypeHoister(namespace: "__$" + property)
        // A listed storage carries no observers: the setter runs them (`observerArguments`), with the
        // types declared in them moved into the same namespace.
        if listed, case .accessors(let accessors) = binding.accessorBlock?.accessors {
            for accessor in accessors { _ = hoister.hoist(accessor) }
        } else if case .accessors(let accessors) = binding.accessorBlock?.accessors {
            let moved = accessors.map {
                ObserverBodyRewriter.rewrite(hoister.hoist($0), property: property, storage: storage).trimmed
            }
            observers = AccessorBlockSyntax(accessors: .accessors(AccessorDeclListSyntax(moved)))
        }
        let declaration = VariableDeclSyntax(
            attributes: AttributeListSyntax(availability),
            modifiers: [DeclModifierSyntax(name: .keyword(.private))]
                + (listed
                    ? [DeclModifierSyntax(name: .keyword(.nonisolated), detail: .init(detail: .identifier("unsafe")))]
                    : [])
                + kept.map { $0.trimmed },
            bindingSpecifier: .keyword(.var),
            bindings: [
                PatternBindingSyntax(
                    pattern: IdentifierPatternSyntax(identifier: .identifier(storage)),
                    typeAnnotation: binding.typeAnnotation?.trimmed,
                    initializer: binding.initializer?.trimmed,
                    accessorBlock: observers
                )
            ]
        )
        return ([DeclSyntax(declaration)] + (hoister.namespaceDeclaration.map { [$0] } ?? [])).map {
            $0.formatted(using: BasicFormat(indentationWidth: AccessorShape.indentation)).cast(DeclSyntax.self).trimmed
        }
    }
}

extension VariableDeclSyntax {
    /// The arguments of `ObservationSlot.store` that run the property's own `willSet`/`didSet` around a
    /// store into `storage`, as Swift runs a stored property's: the old value read first (only when
    /// `didSet` reads it), then `willSet` with the new value, the store, and `didSet`. Each body is the
    /// one that would move onto the storage, as a closure taking the observer's parameter:
    /// `read: { _level }, write: { _level = $0 }, willSet: { next in … }, didSet: { oldValue in … }`.
    func observerArguments(storage: String, property: String) -> String {
        guard case .accessors(let accessors) = observedBinding?.accessorBlock?.accessors else {
            return "write: { \(storage) = $0 }"
        }
        var hoister = LocalTypeHoister(namespace: "__$" + property)
        var willSet: String?
        var didSet: String?
        var readsOldValue = false
        for accessor in accessors {
            let moved = ObserverBodyRewriter.rewrite(hoister.hoist(accessor), property: property, storage: storage)
            let body = moved.body?.statements.trimmedDescription ?? ""
            let parameter = moved.parameters?.name.text
            switch moved.accessorSpecifier.tokenKind {
            case .keyword(.willSet):
                willSet = Self.closure(parameter ?? "newValue", body)
            case .keyword(.didSet):
                // Swift reads the old value only for a `didSet` that names it.
                readsOldValue =
                    parameter != nil
                    || moved.body?.tokens(viewMode: .sourceAccurate).contains {
                        $0.tokenKind == .identifier("oldValue")
                    }
                        == true
                didSet = Self.closure(readsOldValue ? parameter ?? "oldValue" : nil, body)
            default:
                continue
            }
        }
        var arguments: [String] = []
        if readsOldValue { arguments.append("read: { \(storage) }") }
        arguments.append("write: { \(storage) = $0 }")
        if let willSet { arguments.append("willSet: " + willSet) }
        if let didSet { arguments.append("didSet: " + didSet) }
        return arguments.joined(separator: ", ")
    }

    /// `{ parameter in body }`, on one line when the body is one.
    private static func closure(_ parameter: String?, _ body: String) -> String {
        let head = parameter.map { "{ \($0) in" } ?? "{"
        return body.contains("\n") ? "\(head)\n\(body)\n}" : "\(head) \(body) }"
    }
}

extension TypeSyntax {
    /// Whether the type is or contains an opaque `some` type, which a second declaration (the
    /// storage) cannot name.
    var containsOpaqueType: Bool {
        tokens(viewMode: .sourceAccurate).contains { token in
            token.tokenKind == .keyword(.some) && token.parent?.is(SomeOrAnyTypeSyntax.self) == true
        }
    }
}

extension TokenSyntax {
    /// The identifier without backticks, or `nil` for other tokens.
    var identifierText: String? {
        guard case .identifier(let text) = tokenKind else { return nil }
        return text.hasPrefix("`") && text.hasSuffix("`") && text.count > 1 ? String(text.dropFirst().dropLast()) : text
    }
}
