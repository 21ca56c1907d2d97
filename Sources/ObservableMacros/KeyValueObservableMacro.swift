import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@KeyValueObservable` on a class: observes every eligible stored `var` (those without
/// `@Unobserved`), adds the `KeyValueObservable` conformance when the class does not have it yet, and
/// writes the `Codable` conformance the class declares (see `CodableConformance`). A property in the
/// class's braces gets its storage and slot among the class's members and `@_ObservedMember` for its
/// accessors; one inside `#if` gets `@Observed`, storage and slot as its peers.
///
/// Eligible means exactly what `@Observed` accepts, minus overrides (those stay explicit): so a `let`,
/// a computed, `static`, `lazy` or wrapped property is left as it is. A stored `var` that `@Observed`
/// would reject (several bindings, a tuple pattern, an opaque type, …) is an error here, with
/// `@Observed`'s message, rather than silently unobserved.
public struct KeyValueObservableMacro {
    /// The expansion is laid out by the macro itself, as the formatter would lay it out (see
    /// `LaidOutSyntax`): formatting every member attribute, extension, storage, slot and coding member
    /// was a large share of the plugin's time in a debug-built swift-syntax, and most of it for a
    /// `Codable` class (BENCHMARKS.md, "Compile time").
    public static var formatMode: FormatMode { .disabled }
}

extension KeyValueObservableMacro: MemberAttributeMacro {
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingAttributesFor member: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AttributeSyntax] {
        guard let declaration = declaration.as(ClassDeclSyntax.self), !declaration.hasObservableMacro else { return [] }
        if let initializer = member.as(InitializerDeclSyntax.self) {
            initializer.writesRunningObservers(in: declaration).forEach(context.diagnose)
            return []
        }
        guard let property = member.as(VariableDeclSyntax.self), !property.hasAttribute(named: [observedMemberName])
        else { return [] }
        switch marking(of: property, in: declaration) {
        case .observed:
            // A property declared in the class's own braces gets its storage and slot from the class's
            // member expansion (one request to the plugin per class rather than one per property);
            // one inside `#if`, whose clause the macro cannot evaluate, gets `@Observed`'s peers.
            guard isWrittenByClass(property, in: declaration) else { return [observed] }
            return [ObservationBridge.declaresOwnMembers(declaration) ? observedMemberCallingClass : observedMember]
        case .left: return []
        case .refused(let problems):
            problems.forEach(context.diagnose)
            return []
        }
    }

    /// The attribute the class attribute adds, built once: it is asked about every member.
    static let observed = AttributeSyntax(attributeName: IdentifierTypeSyntax(name: .identifier("Observed")))
    /// `@Observed`'s accessors alone, for a property whose storage and slot the member expansion writes.
    static let observedMember = AttributeSyntax(
        attributeName: IdentifierTypeSyntax(name: .identifier(observedMemberName)))
    static let observedMemberName = "_ObservedMember"
    /// The same, in a class declaring `Observable` that writes its own `access(keyPath:)` or
    /// `withMutation(keyPath:_:)`: the accessors call them (`ObservationCalls.classMembers`).
    static let observedMemberCallingClass: AttributeSyntax = "@\(raw: observedMemberName)(callsClassMembers: true)"

    /// The properties whose storage and slot the class's member expansion writes: those it marks that
    /// are declared directly in its braces.
    static func propertiesWrittenByClass(_ declaration: ClassDeclSyntax) -> [VariableDeclSyntax] {
        declaration.memberBlock.members.compactMap {
            guard let property = $0.decl.as(VariableDeclSyntax.self), marking(of: property, in: declaration).isObserved
            else { return nil }
            return property
        }
    }

    /// Whether `property` (a member the compiler passes on its own) is one of those, found by name: a
    /// property of that name inside `#if` as well would be declared twice.
    static func isWrittenByClass(_ property: VariableDeclSyntax, in declaration: ClassDeclSyntax) -> Bool {
        guard let name = property.observedIdentifier?.identifierText else { return false }
        return declaration.memberBlock.members.contains {
            $0.decl.as(VariableDeclSyntax.self)?.observedIdentifier?.identifierText == name
        }
    }

    /// What the class attribute does with one property of the class.
    enum Marking {
        /// Observed: marked `@_ObservedMember` (or `@Observed` inside `#if`).
        case observed
        /// Left as it is: already marked, `@Unobserved`, a `let`, static, an override, computed, lazy
        /// or wrapped.
        case left
        /// A stored `var` that `@Observed` would reject: an error rather than silently unobserved.
        case refused([Diagnostic])

        var isObserved: Bool {
            if case .observed = self { return true }
            return false
        }
    }

    static func marking(of property: VariableDeclSyntax, in declaration: ClassDeclSyntax) -> Marking {
        guard !property.hasAttribute(named: ["Observed", "Unobserved"]),
            property.bindingSpecifier.tokenKind == .keyword(.var),
            !property.hasModifier(.override), !property.hasModifier(.static), !property.hasModifier(.class)
        else { return .left }
        if !property.isSingleIdentifierBinding {
            return .refused([
                Diagnostic(node: Syntax(property.bindings), message: ObservedDiagnostic.classMemberNeedsSplitting)
            ])
        }
        let problems = property.observedProblems(attribute: observed, lexicalContext: [Syntax(declaration)])
        guard !problems.isEmpty else { return .observed }
        // Computed, lazy and wrapped properties are not what the class attribute observes; any other
        // reason a stored `var` cannot be observed is reported, not left silently unobserved.
        if !property.isComputed, !property.hasModifier(.lazy), !property.hasPropertyWrapper(besides: observed) {
            return .refused(problems)
        }
        return .left
    }
}

extension KeyValueObservableMacro: MemberMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let declaration = declaration.as(ClassDeclSyntax.self) else { return [] }
        if declaration.hasObservableMacro {
            context.diagnose(
                Diagnostic(node: Syntax(node), message: ObservedDiagnostic.keyValueObservableWithObservableMacro))
            return []
        }
        var members: [DeclSyntax] = []
        for property in propertiesWrittenByClass(declaration) {
            guard let names = ObservedMacro.Names(property, in: declaration) else { continue }
            members += ObservedMacro.declarations(of: property, names: names, in: declaration)
        }
        switch ObservationBridge.reporting(in: declaration) {
        case .none:
            break
        case .declared:
            members.append(ObservationBridge.classRegistrarDeclaration(in: declaration))
            members += ObservationBridge.classMembers(of: declaration, in: context)
        case .chosenByConformance:
            members.append(ObservationBridge.classRegistrarDeclaration(in: declaration))
        }
        if let coding = CodableConformance(declaration) {
            let (coded, problems) = coding.expansion(of: declaration)
            problems.forEach(context.diagnose)
            members += coded
        }
        members.append(
            PropertyList.declaration(
                of: declaration, superclassLists: !protocols.contains(where: PropertyList.isListingProtocol)))
        if ReflectionConformance.isDeclared(by: declaration) {
            if declaration.isFinal {
                members += ReflectionConformance.members(of: declaration)
            } else {
                context.diagnose(
                    Diagnostic(node: Syntax(declaration.name), message: ObservedDiagnostic.mirrorNeedsFinalClass))
            }
        }
        return members
    }
}

extension KeyValueObservableMacro: ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard declaration.is(ClassDeclSyntax.self) else {
            context.diagnose(Diagnostic(node: Syntax(node), message: ObservedDiagnostic.keyValueObservableNotAClass))
            return []
        }
        // The compiler lists only the protocols the class does not conform to yet: a subclass of a
        // `@KeyValueObservable` class conforms already; one of a class conforming to
        // `KeyValueObservable` by hand lacks the listing.
        guard protocols.contains(where: PropertyList.isListingProtocol) else { return [] }
        let missing = Set(protocols.map(PropertyList.unqualifiedName))
        // With `@Observable` (an error) the member role writes no list to conform with.
        let lists = declaration.as(ClassDeclSyntax.self)?.hasObservableMacro != true
        let conformances = ["KeyValueObservable", "ObservedPropertyListing"].filter {
            missing.contains($0) && (lists || $0 != "ObservedPropertyListing")
        }.map { "ObservableCore." + $0 }
        // Laid out as the formatter lays it out (see `LaidOutSyntax`).
        let text = "extension \(type.trimmed): \(conformances.joined(separator: ", ")) {\n}"
        return [LaidOutSyntax.extensionDeclaration(text)]
    }
}

/// `@Unobserved`: leaves one stored property of a `@KeyValueObservable` class unobserved. Expands to
/// nothing; the class macro looks for it.
public struct UnobservedMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        []
    }
}
