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
///
/// Variants: `skipsEqualValues: true` adds an equality check to the set's slow path and drops
/// `_modify`; `notifiesAutomatically: false` keeps the tracking getter and a plain store; on an
/// `override var` the accessors wrap `super.name` and only the slot is a peer.
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

        let options = ObservedOptions.parse(node).0
        let isOverride = property.hasModifier(.override)
        let slot = names.slot
        // An override has no storage of its own: it wraps the superclass's property.
        let value: ExprSyntax = isOverride ? "super.\(names.property)" : "\(names.storage)"
        let change = context.makeUniqueName("change")
        var accessors: [AccessorDeclSyntax] = []
        if !isOverride, property.observedBinding?.initializer == nil {
            accessors.append(
                """
                @storageRestrictions(initializes: \(names.storage))
                init(initialValue) {
                    \(names.storage) = initialValue
                }
                """)
        }
        accessors.append(
            """
            get {
                if ObservableCore._$isTracking {
                    \(slot)._$track(self) {
                        \\.\(names.property)
                    } chained: {
                        \\.?.\(names.property)
                    }
                }
                return \(value)
            }
            """)
        guard options.notifiesAutomatically else {
            // Manual notification: the owner brackets changes with willChangeValue/didChangeValue.
            accessors.append(
                """
                set {
                    \(value) = newValue
                }
                """)
            if !isOverride {
                accessors.append(
                    """
                    _modify {
                        yield &\(value)
                    }
                    """)
            }
            return accessors
        }
        let fastPath: ExprSyntax = options.skipsEqualValues
            ? "\(slot)._$isObserved, !ObservableCore._$isDuplicate(\(value), newValue)"
            : "\(slot)._$isObserved"
        accessors.append(
            """
            set {
                guard \(fastPath) else {
                    \(value) = newValue
                    return
                }
                let \(change) = \(slot)._$willSet(self, \(value))
                \(value) = newValue
                \(slot)._$didSet(self, \(change), \(value))
            }
            """)
        // In-place mutation without a copy. Not for an override (super's storage is not ours to
        // yield) nor when equal values are skipped (equality is only known after the mutation, too
        // late for a `.prior` notification): Swift then mutates through `get` and `set`.
        if !isOverride, !options.skipsEqualValues {
            accessors.append(
                """
                _modify {
                    guard \(slot)._$isObserved else {
                        yield &\(value)
                        return
                    }
                    let \(change) = \(slot)._$willSet(self, \(value))
                    defer {
                        \(slot)._$didMutate(self, \(change), \(value))
                    }
                    yield &\(value)
                }
                """)
        }
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
        let slot: DeclSyntax = "private let \(names.slot) = ObservableCore._$ObservationSlot()"
        if property.hasModifier(.override) { return [slot] }
        return [property.observedStorage(named: names.storage.text, property: names.property.identifierText!), slot]
    }
}
