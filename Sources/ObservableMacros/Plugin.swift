import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plugin: the package's macros, served by swift-syntax's own message loop.
@main
struct ObservableMacrosPlugin: CompilerPlugin {
    let providingMacros: [Macro.Type] = [
        ObservedMacro.self,
        KeyValueObservableMacro.self,
        UnobservedMacro.self,
    ]
}
