import SwiftDiagnostics
import SwiftSyntax

/// Every problem `@Observed` reports, worded like the compiler's.
enum ObservedDiagnostic: DiagnosticMessage {
    case notAVariable
    case letConstant
    case computedProperty
    case typeProperty(keyword: String)
    case lazyProperty
    case propertyWrapper(name: String)
    case overrideWithInitialValue
    case overrideWithObservers
    case optionNotLiteral(label: String)
    case skipsEqualValuesWithManualNotification
    case keyValueObservableNotAClass
    case classMemberNeedsSplitting
    case invalidContainer(detail: String?)
    case tuplePattern
    case multipleBindings
    case missingTypeAndInitializer(name: String)
    case opaqueType(type: String)
    case nonisolatedUnsafe
    case nonisolatedInIsolatedClass(isolation: String)
    case codableNeedsClassAttribute(className: String, protocol: String)
    case codingKeyWithoutProperty(key: String, className: String)
    case propertyWithoutCodingKey(name: String)
    case observableMacroOnClass
    case observationAttribute(name: String)
    case keyValueObservableWithObservableMacro
    case mirrorNeedsFinalClass
    case observedMemberWritten
    case initializerRunsObservers(property: String, observers: String)

    var message: String {
        switch self {
        case .notAVariable:
            "'@Observed' can only be applied to a stored 'var' property of a class"
        case .letConstant:
            "'@Observed' cannot be applied to a 'let' constant"
        case .computedProperty:
            "'@Observed' cannot be applied to a computed property"
        case .typeProperty(let keyword):
            "'@Observed' cannot be applied to a '\(keyword)' property"
        case .lazyProperty:
            "'@Observed' cannot be applied to a 'lazy' property"
        case .propertyWrapper(let name):
            "'@Observed' cannot be combined with property wrapper '@\(name)'"
        case .overrideWithInitialValue:
            "an '@Observed' overriding property cannot have an initial value; assign it in an initializer"
        case .overrideWithObservers:
            "an '@Observed' overriding property cannot have 'willSet' or 'didSet'; observe it instead, or override it in a further subclass"
        case .optionNotLiteral(let label):
            "'\(label)' must be the literal 'true' or 'false'"
        case .skipsEqualValuesWithManualNotification:
            "'skipsEqualValues' has no effect with 'notifiesAutomatically: false': the owner decides when to notify"
        case .keyValueObservableNotAClass:
            "'@KeyValueObservable' can only be applied to a class"
        case .classMemberNeedsSplitting:
            "'@KeyValueObservable' cannot observe a declaration with several bindings or a tuple pattern; declare each property separately, or mark it '@Unobserved'"
        case .observedMemberWritten:
            "'@_ObservedMember' is written by '@KeyValueObservable' on the class; write '@Observed' instead"
        case .invalidContainer(let detail):
            "'@Observed' can only be applied to a stored property of a class" + (detail.map { "; \($0)" } ?? "")
        case .tuplePattern:
            "'@Observed' cannot be applied to a tuple pattern; declare each property separately"
        case .multipleBindings:
            "'@Observed' cannot be applied to a declaration with several bindings; declare each property separately"
        case .missingTypeAndInitializer(let name):
            "'@Observed' property '\(name)' needs a type annotation or an initial value"
        case .opaqueType(let type):
            "'@Observed' cannot be applied to a property of opaque type '\(type)'; declare its concrete type"
        case .nonisolatedUnsafe:
            "'@Observed' cannot be applied to a 'nonisolated(unsafe)' property: it makes the property computed, where 'nonisolated(unsafe)' has no effect; leave the property unobserved, or drop '(unsafe)' in a class that is not actor-isolated"
        case .nonisolatedInIsolatedClass(let isolation):
            "'nonisolated' cannot be applied to a mutable stored property of a '@\(isolation)' class, with or without '@Observed'"
        case .codableNeedsClassAttribute(let className, let coding):
            "'@Observed' in a '\(coding)' class needs '@KeyValueObservable' on '\(className)', which writes the conformance the compiler cannot synthesize for observed properties (it observes every stored 'var': mark any to leave alone '@Unobserved')"
        case .observableMacroOnClass:
            "'@Observed' cannot be used in an '@Observable' class: both macros make the property computed; remove '@Observable' and declare the conformance instead (': Observable'), which '@Observed' then reports to as '@Observable' would"
        case .observationAttribute(let name):
            "'@Observed' cannot be combined with '@\(name)', which belongs to '@Observable'; in a class declaring 'Observable', '@Observed' reports to Observation itself"
        case .keyValueObservableWithObservableMacro:
            "'@KeyValueObservable' cannot be combined with '@Observable': both macros make the properties computed; remove '@Observable' and declare the conformance instead (': Observable'), which the observed properties then report to as with '@Observable'"
        case .mirrorNeedsFinalClass:
            "'@KeyValueObservable' writes 'customMirror' only for a final class: a mirror is inherited, and a subclass's properties would be missing from it; make the class final, or write 'customMirror' yourself"
        case .codingKeyWithoutProperty(let key, let className):
            "CodingKey case '\(key)' does not match any stored property of '\(className)'"
        case .initializerRunsObservers(let property, let observers):
            "this assignment to '\(property)' runs its \(observers): the instance is fully initialized here, so Swift calls the observed property's setter (as for '@Observable'), where a plain stored property is stored directly by its initializer"
        case .propertyWithoutCodingKey(let name):
            "'init(from:)' cannot set '\(name)': it has no case in 'CodingKeys' and no initial value; add 'case \(name)' to 'CodingKeys' or give it an initial value"
        }
    }

    var diagnosticID: MessageID {
        let id =
            switch self {
            case .notAVariable: "notAVariable"
            case .letConstant: "letConstant"
            case .computedProperty: "computedProperty"
            case .typeProperty: "typeProperty"
            case .lazyProperty: "lazyProperty"
            case .propertyWrapper: "propertyWrapper"
            case .overrideWithInitialValue: "overrideWithInitialValue"
            case .overrideWithObservers: "overrideWithObservers"
            case .optionNotLiteral: "optionNotLiteral"
            case .skipsEqualValuesWithManualNotification: "skipsEqualValuesWithManualNotification"
            case .keyValueObservableNotAClass: "keyValueObservableNotAClass"
            case .classMemberNeedsSplitting: "classMemberNeedsSplitting"
            case .invalidContainer: "invalidContainer"
            case .tuplePattern: "tuplePattern"
            case .multipleBindings: "multipleBindings"
            case .missingTypeAndInitializer: "missingTypeAndInitializer"
            case .opaqueType: "opaqueType"
            case .nonisolatedUnsafe: "nonisolatedUnsafe"
            case .nonisolatedInIsolatedClass: "nonisolatedInIsolatedClass"
            case .codableNeedsClassAttribute: "codableNeedsClassAttribute"
            case .codingKeyWithoutProperty: "codingKeyWithoutProperty"
            case .propertyWithoutCodingKey: "propertyWithoutCodingKey"
            case .observableMacroOnClass: "observableMacroOnClass"
            case .observationAttribute: "observationAttribute"
            case .keyValueObservableWithObservableMacro: "keyValueObservableWithObservableMacro"
            case .mirrorNeedsFinalClass: "mirrorNeedsFinalClass"
            case .observedMemberWritten: "observedMemberWritten"
            case .initializerRunsObservers: "initializerRunsObservers"
            }
        return MessageID(domain: "ObservableCore.Observed", id: id)
    }

    var severity: DiagnosticSeverity {
        switch self {
        case .initializerRunsObservers: .warning
        default: .error
        }
    }
}

/// The fix-its `@Observed` offers where the mend is mechanical.
struct ObservedFixIt: FixItMessage {
    let message: String
    let id: String

    var fixItID: MessageID { MessageID(domain: "ObservableCore.Observed", id: id) }

    static let replaceLetWithVar = ObservedFixIt(message: "Replace 'let' with 'var'", id: "replaceLetWithVar")
    static let removeLazy = ObservedFixIt(message: "Remove 'lazy'", id: "removeLazy")
    static let addTypeAnnotation = ObservedFixIt(message: "Add a type annotation", id: "addTypeAnnotation")
    static let removeUnsafe = ObservedFixIt(
        message: "Replace 'nonisolated(unsafe)' with 'nonisolated'", id: "removeUnsafe")
    static let splitDeclaration = ObservedFixIt(
        message: "Split into one '@Observed' declaration per property", id: "splitDeclaration")
    static func storeToStorage(_ storage: String) -> ObservedFixIt {
        ObservedFixIt(message: "Store to '\(storage)' directly, as for a plain stored property", id: "storeToStorage")
    }
}
