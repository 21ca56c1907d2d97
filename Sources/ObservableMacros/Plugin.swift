import SwiftCompilerPlugin
import SwiftSyntaxMacros

@main
struct ObservableMacrosPlugin: CompilerPlugin {
    let providingMacros: [Macro.Type] = [
        ObservedMacro.self,
        KeyValueObservableMacro.self,
        UnobservedMacro.self,
    ]
}
