import SwiftDiagnostics
import SwiftSyntax

/// The arguments of `@Observed(skipsEqualValues:notifiesAutomatically:stringKey:)`, read from the attribute.
///
/// The compiler has already type-checked them against the macro's declaration (labels, order,
/// `Bool`); what it cannot check is that they are literals, which the expansion needs to know.
struct ObservedOptions {
    /// A set that stores a value equal to (or, for class references, identical with) the current
    /// one stores it without notifying.
    var skipsEqualValues = false
    /// `false`: sets never notify; the owner calls `willChangeValue(for:)`/`didChangeValue(for:)`.
    var notifiesAutomatically = true
    /// `@_ObservedMember(callsClassMembers: true)`, which `@KeyValueObservable` writes when the class
    /// declares its own `access(keyPath:)` or `withMutation(keyPath:_:)`: the accessors call them
    /// rather than leaving Observation's calls to the slot (see `ObservationCalls`).
    var callsClassMembers = false
    /// `stringKey:` as written: whether a string key path reaches the property, `nil` when the
    /// declared access decides (`VariableDeclSyntax.hasStringKey`).
    var stringKey: Bool?

    /// The options and what is wrong with them, anchored on the offending argument.
    static func parse(_ attribute: AttributeSyntax) -> (ObservedOptions, [Diagnostic]) {
        var options = ObservedOptions()
        var problems: [Diagnostic] = []
        guard case .argumentList(let arguments) = attribute.arguments else { return (options, problems) }
        for argument in arguments {
            guard let label = argument.label?.text else { continue }
            guard let literal = argument.expression.as(BooleanLiteralExprSyntax.self) else {
                problems.append(
                    Diagnostic(
                        node: Syntax(argument.expression), message: ObservedDiagnostic.optionNotLiteral(label: label)))
                continue
            }
            let value = literal.literal.tokenKind == .keyword(.true)
            switch label {
            case "skipsEqualValues": options.skipsEqualValues = value
            case "notifiesAutomatically": options.notifiesAutomatically = value
            case "callsClassMembers": options.callsClassMembers = value
            case "stringKey": options.stringKey = value
            default: break
            }
        }
        if options.skipsEqualValues, !options.notifiesAutomatically {
            problems.append(
                Diagnostic(node: Syntax(arguments), message: ObservedDiagnostic.skipsEqualValuesWithManualNotification))
        }
        return (options, problems)
    }
}
