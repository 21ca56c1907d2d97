import SwiftSyntax

/// What the macros read from the class around them: its attributes and what it inherits.
extension ClassDeclSyntax {
    /// Whether `@KeyValueObservable` is written on the class.
    var hasKeyValueObservableAttribute: Bool {
        hasAttribute("KeyValueObservable", module: "ObservableCore")
    }

    /// Whether Observation's `@Observable` macro is written on the class.
    var hasObservableMacro: Bool {
        hasAttribute("Observable", module: "Observation")
    }

    /// Whether the class declares Observation's `Observable` conformance itself, which `@Observed`
    /// then reports to (a subclass inherits the conformance without declaring it).
    var declaresObservable: Bool {
        inheritedTypeNames.contains("Observable")
    }

    /// The types the class inherits, without a standard module's prefix (`Swift.Codable`), with
    /// compositions and attributes (`@MainActor Codable`) looked through.
    var inheritedTypeNames: [String] {
        inheritanceClause?.inheritedTypes.flatMap { Self.unqualifiedNames($0.type) } ?? []
    }

    /// Whether the class surely has no superclass: the first type it inherits (where a superclass
    /// must be written) is a protocol the macros know. Otherwise it may be a subclass, whose
    /// initializers and inherited members a macro cannot know.
    var isSurelyRoot: Bool {
        guard let first = inheritanceClause?.inheritedTypes.first?.type else { return true }
        return Self.unqualifiedNames(first).allSatisfy { Self.knownProtocols.contains($0) || $0 == "Observable" }
    }

    /// Whether the class surely is not `Observable`: everything it inherits is a protocol the macros
    /// know not to refine it. A superclass or a protocol of the user's may make it `Observable`.
    var isSurelyNotObservable: Bool {
        inheritedTypeNames.allSatisfy(Self.knownProtocols.contains)
    }

    /// Protocols of the standard library and of this package, none of them `Observable`.
    private static let knownProtocols: Set<String> = [
        "Codable", "Encodable", "Decodable", "KeyValueObservable", "Sendable", "AnyObject", "Equatable", "Hashable",
        "Identifiable", "CustomStringConvertible", "CustomDebugStringConvertible", "CustomReflectable",
    ]

    /// Whether the class is `public` or `open`, so that what the macros write for it is `public`.
    var isPublic: Bool {
        modifiers.contains { [.keyword(.public), .keyword(.open)].contains($0.name.tokenKind) }
    }

    /// Whether the class is `final`.
    var isFinal: Bool {
        modifiers.contains { $0.name.tokenKind == .keyword(.final) }
    }

    static func unqualifiedNames(_ type: TypeSyntax) -> [String] {
        if let composition = type.as(CompositionTypeSyntax.self) {
            return composition.elements.flatMap { unqualifiedNames($0.type) }
        }
        if let attributed = type.as(AttributedTypeSyntax.self) {
            return unqualifiedNames(attributed.baseType)
        }
        let name = type.textWithoutTrivia
        for module in ["Swift.", "ObservableCore.", "Observation."] where name.hasPrefix(module) {
            return [String(name.dropFirst(module.count))]
        }
        return [name]
    }

    private func hasAttribute(_ name: String, module: String) -> Bool {
        attributes.contains { element in
            guard case .attribute(let attribute) = element else { return false }
            let written = attribute.attributeName.textWithoutTrivia
            return written == name || written == module + "." + name
        }
    }
}
