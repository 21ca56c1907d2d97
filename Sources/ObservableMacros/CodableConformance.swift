import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder

/// The `Codable` conformance `@KeyValueObservable` writes for a class that declares `Codable`,
/// `Encodable` or `Decodable` itself: what the compiler would synthesise for the same class without
/// the macro, which it cannot synthesise with it (an observed property is computed, and its storage
/// and slot are stored properties of other names and types).
///
/// As the compiler does: keys are the stored properties' names as written (or the cases of the
/// user's `CodingKeys`), every stored property counts (`weak`, `unowned` and unobserved ones too,
/// not `lazy`, `static` or overriding ones), optionals use `…IfPresent`, a `let` with an initial
/// value is encoded but not decoded, a wrapped property codes its wrapper. What the class declares
/// itself (`CodingKeys`, `init(from:)`, `encode(to:)`) is kept, and only the rest is written.
struct CodableConformance {
    /// A stored property as coding sees it.
    struct Property {
        /// The name as written (backticks kept), which is also its key.
        let name: TokenSyntax
        /// What the coding reads: the name, or the wrapper's storage `_name`.
        let member: String
        /// What decoding assigns: `member`, or an observed property's storage `_name`, which the
        /// class's own initializer stores to directly (no `willSet`/`didSet`, no notification), as
        /// the compiler's synthesis stores a plain property.
        let storage: String
        /// Whether decoding leaves it alone (a `let` with an initial value).
        let isConstantWithValue: Bool
        /// Whether a decoder may skip it: it has an initial value, or is an optional `var`.
        let hasDefault: Bool
        /// The type as written, when it can be spelled `Type.self` in an expression; `nil` when it is
        /// inferred, is a wrapper's, or takes another form (the key path then gives it).
        let writtenType: String?
        let node: PatternBindingSyntax
    }

    let encodes: Bool
    let decodes: Bool

    /// The coding protocols the class names in its own inheritance clause; `nil` when none.
    init?(_ declaration: ClassDeclSyntax) {
        let names = Set(declaration.inheritedTypeNames)
        encodes = names.contains("Codable") || names.contains("Encodable")
        decodes = names.contains("Codable") || names.contains("Decodable")
        guard encodes || decodes else { return nil }
    }

    /// The first of `Codable`, `Encodable` and `Decodable` the class names in its inheritance clause.
    static func declaredProtocol(of declaration: ClassDeclSyntax) -> String? {
        declaration.inheritedTypeNames.first { ["Codable", "Encodable", "Decodable"].contains($0) }
    }

    /// Whether the class gets the implicit `init()`, which a written `init(from:)` would take away
    /// (the compiler's synthesised one does not): no designated initializer of its own, a value for
    /// every stored property, and no superclass.
    private static func hasImplicitInitializer(
        _ declaration: ClassDeclSyntax, members: [DeclSyntax], properties: [Property]
    ) -> Bool {
        let declaresInitializer = members.contains {
            guard let initializer = $0.as(InitializerDeclSyntax.self) else { return false }
            return !initializer.modifiers.contains { $0.name.tokenKind == .keyword(.convenience) }
        }
        return !declaresInitializer && properties.allSatisfy(\.hasDefault) && declaration.isSurelyRoot
    }

    /// The members to add, and the problems that stop them (reported on the user's declarations).
    func expansion(of declaration: ClassDeclSyntax) -> (members: [DeclSyntax], problems: [Diagnostic]) {
        let members = declaration.memberBlock.members.map(\.decl)
        let properties = members.compactMap { $0.as(VariableDeclSyntax.self) }.flatMap {
            Self.storedProperties($0, in: declaration)
        }
        let userKeys = members.lazy.compactMap { $0.as(EnumDeclSyntax.self) }.first { $0.name.text == "CodingKeys" }
        let writesDecoder = decodes && !members.contains(where: Self.isDecodingInitializer)
        let writesEncoder = encodes && !members.contains(where: Self.isEncodingMethod)
        guard writesDecoder || writesEncoder else { return ([], []) }

        var problems: [Diagnostic] = []
        var coded = properties
        if let userKeys {
            let cases = userKeys.memberBlock.members.compactMap { $0.decl.as(EnumCaseDeclSyntax.self) }.flatMap(
                \.elements)
            let caseNames = Set(cases.compactMap { $0.name.identifierText })
            let propertyNames = Set(properties.compactMap { $0.name.identifierText })
            for element in cases where !propertyNames.contains(element.name.identifierText ?? "") {
                problems.append(
                    Diagnostic(
                        node: Syntax(element.name),
                        message: ObservedDiagnostic.codingKeyWithoutProperty(
                            key: element.name.trimmedDescription, className: declaration.name.text)))
            }
            coded = properties.filter { caseNames.contains($0.name.identifierText ?? "") }
            if writesDecoder {
                for property in properties
                where !property.hasDefault && !caseNames.contains(property.name.identifierText ?? "") {
                    problems.append(
                        Diagnostic(
                            node: Syntax(property.node.pattern),
                            message: ObservedDiagnostic.propertyWithoutCodingKey(
                                name: property.name.trimmedDescription)))
                }
            }
        }
        guard problems.isEmpty else { return ([], problems) }

        // Laid out as the formatter would (see `LaidOutSyntax`): parsing and formatting these was
        // most of the plugin's time for a `Codable` class.
        let type = declaration.name.text
        let isFinal = declaration.isFinal
        let access = declaration.isPublic ? "public " : ""
        func block(_ head: String, _ lines: [String]) -> DeclSyntax {
            LaidOutSyntax.declaration(head + " {\n" + lines.map { "    " + $0 + "\n" }.joined() + "}")
        }
        var result: [DeclSyntax] = []
        if userKeys == nil {
            result.append(block("private enum CodingKeys: CodingKey", coded.map { "case \($0.name.text)" }))
        }
        if writesDecoder {
            let decoded = coded.filter { !$0.isConstantWithValue }
            let body =
                decoded.isEmpty
                ? ["_ = try decoder.container(keyedBy: CodingKeys.self)"]
                : ["let container = try decoder.container(keyedBy: CodingKeys.self)"]
                    + decoded.map {
                        // A written type is cheaper for the compiler than a key path to infer it from.
                        let value = $0.writtenType.map { "\($0).self" } ?? "\\\(type).\($0.member)"
                        return "self.\($0.storage) = try container._observedDecode(\(value), forKey: .\($0.name.text))"
                    }
            result.append(block("\(access)\(isFinal ? "" : "required ")init(from decoder: any Decoder) throws", body))
            if Self.hasImplicitInitializer(declaration, members: members, properties: properties) {
                // Internal, as the implicit one is, also in a public class.
                result.append(block("init()", []))
            }
        }
        if writesEncoder {
            let body =
                coded.isEmpty
                ? ["_ = encoder.container(keyedBy: CodingKeys.self)"]
                : ["var container = encoder.container(keyedBy: CodingKeys.self)"]
                    + coded.map { "try container._observedEncode(self.\($0.member), forKey: .\($0.name.text))" }
            result.append(block("\(access)func encode(to encoder: any Encoder) throws", body))
        }
        return (result, [])
    }

    /// The stored properties one declaration adds, as the compiler's synthesis counts them.
    private static func storedProperties(_ declaration: VariableDeclSyntax, in type: ClassDeclSyntax) -> [Property] {
        guard ![.static, .class, .lazy, .override].contains(where: declaration.hasModifier) else { return [] }
        let isLet = declaration.bindingSpecifier.tokenKind == .keyword(.let)
        let isWrapped = declaration.hasPropertyWrapper(besides: "@Observed")
        let isObserved =
            declaration.hasAttribute(named: ["Observed"])
            || KeyValueObservableMacro.marking(of: declaration, in: type).isObserved
        var properties: [Property] = []
        for (index, binding) in declaration.bindings.enumerated() {
            guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.withoutTrivia,
                !binding.isComputed, let text = name.identifierText
            else { continue }
            // In `var a, b: Int` the type of `a` is the next annotation's.
            let type = declaration.bindings.dropFirst(index).lazy.compactMap(\.typeAnnotation?.type).first
            let hasValue = binding.initializer != nil
            // A wrapper's storage is `_name` by Swift's rule; an observed property's by the macro's.
            let member = isWrapped ? "_" + text : name.text
            properties.append(
                Property(
                    name: name, member: member, storage: isObserved ? ObservedMacro.Names.storage(of: text) : member,
                    isConstantWithValue: isLet && hasValue,
                    hasDefault: hasValue || (!isLet && type?.isOptional == true) || isWrapped,
                    writtenType: isWrapped
                        ? nil : type.flatMap { $0.isSpelledAsExpression ? $0.textWithoutTrivia : nil },
                    node: binding))
        }
        return properties
    }

    private static func isDecodingInitializer(_ member: DeclSyntax) -> Bool {
        guard let initializer = member.as(InitializerDeclSyntax.self) else { return false }
        let parameters = initializer.signature.parameterClause.parameters
        return parameters.count == 1 && parameters.first?.firstName.text == "from"
    }

    private static func isEncodingMethod(_ member: DeclSyntax) -> Bool {
        guard let function = member.as(FunctionDeclSyntax.self), function.name.text == "encode" else { return false }
        let parameters = function.signature.parameterClause.parameters
        return parameters.count == 1 && parameters.first?.firstName.text == "to"
    }
}

extension PatternBindingSyntax {
    /// Whether this binding has accessors other than `willSet`/`didSet` (which still mean stored).
    var isComputed: Bool {
        guard let accessorBlock else { return false }
        switch accessorBlock.accessors {
        case .getter:
            return true
        case .accessors(let accessors):
            return accessors.contains {
                $0.accessorSpecifier.tokenKind != .keyword(.willSet)
                    && $0.accessorSpecifier.tokenKind != .keyword(.didSet)
            }
        }
    }
}

extension TypeSyntax {
    /// Whether `Type.self` is an expression as the type is written: names (`Int`, `Swift.Array<T>`),
    /// `[T]`, `[K: V]` and `T?` made of them. A function type, `any P`, `T!` and the rest need
    /// parentheses or cannot be spelled so.
    var isSpelledAsExpression: Bool {
        // (A generic argument is a `TypeSyntax` before swift-syntax 602 and a choice after.)
        func spelled(_ clause: GenericArgumentClauseSyntax?) -> Bool {
            clause?.arguments.allSatisfy { Syntax($0.argument).as(TypeSyntax.self)?.isSpelledAsExpression == true }
                ?? true
        }
        if let identifier = self.as(IdentifierTypeSyntax.self) {
            return spelled(identifier.genericArgumentClause)
        }
        if let member = self.as(MemberTypeSyntax.self) {
            return member.baseType.isSpelledAsExpression && spelled(member.genericArgumentClause)
        }
        if let array = self.as(ArrayTypeSyntax.self) { return array.element.isSpelledAsExpression }
        if let dictionary = self.as(DictionaryTypeSyntax.self) {
            return dictionary.key.isSpelledAsExpression && dictionary.value.isSpelledAsExpression
        }
        if let optional = self.as(OptionalTypeSyntax.self) { return optional.wrappedType.isSpelledAsExpression }
        return false
    }

    /// `T?`, `T!` or `Optional<T>` as written.
    var isOptional: Bool {
        if self.is(OptionalTypeSyntax.self) || self.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return true }
        guard let identifier = self.as(IdentifierTypeSyntax.self) else { return false }
        return identifier.name.text == "Optional" && identifier.genericArgumentClause != nil
    }
}
