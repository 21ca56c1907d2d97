import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Observed`: turns a stored `var` of a class into storage plus accessors that notify the
/// ObservableCore runtime before and after every store, and report reads to key-path tracking.
///
/// For `@Observed var name: String` it generates
/// - accessors on `name`: `init` (when there is no initial value), `get`, `set`, `_modify`;
/// - peers: `private var _name: String` (the storage, carrying any `willSet`/`didSet`) and
///   `private let _$name = ObservableCore._$ObservationSlot()` (one pointer, nil until observed).
public struct ObservedMacro {
    /// The names of what one property expands to.
    struct Names {
        /// The property as written, backticks included: used in `\.name`.
        let property: TokenSyntax
        let storage: TokenSyntax
        let slot: TokenSyntax

        init?(_ declaration: VariableDeclSyntax) {
            guard let identifier = declaration.observedIdentifier, let text = identifier.identifierText else { return nil }
            property = identifier
            storage = .identifier("_" + text)
            slot = .identifier("_$" + text)
        }
    }
}

extension ObservedMacro: AccessorMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        // Each problem is reported by exactly one role: this one, except for what the compiler never
        // brings to accessor macros (several bindings, tuple patterns, non-variables).
        guard let property = declaration.as(VariableDeclSyntax.self) else { return [] }
        let problems = property.observedProblems(attribute: node, lexicalContext: context.lexicalContext)
        if property.isSingleIdentifierBinding { problems.forEach(context.diagnose) }
        guard problems.isEmpty, let names = Names(property) else { return [] }

        let (storage, slot) = (names.storage, names.slot)
        let change = context.makeUniqueName("change")
        var accessors: [AccessorDeclSyntax] = []
        if property.observedBinding?.initializer == nil {
            accessors.append(
                """
                @storageRestrictions(initializes: \(storage))
                init(initialValue) {
                    \(storage) = initialValue
                }
                """)
        }
        accessors.append(
            """
            get {
                if ObservableCore._$isTracking {
                    \(slot)._$track(self) {
                        \\.\(names.property)
                    }
                }
                return \(storage)
            }
            """)
        accessors.append(
            """
            set {
                guard \(slot)._$isObserved else {
                    \(storage) = newValue
                    return
                }
                let \(change) = \(slot)._$willSet(self, \(storage))
                \(storage) = newValue
                \(slot)._$didSet(self, \(change), \(storage))
            }
            """)
        accessors.append(
            """
            _modify {
                guard \(slot)._$isObserved else {
                    yield &\(storage)
                    return
                }
                let \(change) = \(slot)._$willSet(self, \(storage))
                defer {
                    \(slot)._$didSet(self, \(change), \(storage))
                }
                yield &\(storage)
            }
            """)
        return accessors
    }
}

extension ObservedMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let property = declaration.as(VariableDeclSyntax.self) else {
            // Functions, types, …: the accessor role never runs for these, so report here.
            context.diagnose(Diagnostic(node: Syntax(node), message: ObservedDiagnostic.notAVariable))
            return []
        }
        let problems = property.observedProblems(attribute: node, lexicalContext: context.lexicalContext)
        if !property.isSingleIdentifierBinding { problems.forEach(context.diagnose) }
        guard problems.isEmpty, let names = Names(property) else { return [] }
        return [
            property.observedStorage(named: names.storage.text, property: names.property.identifierText!),
            "private let \(names.slot) = ObservableCore._$ObservationSlot()",
        ]
    }
}
