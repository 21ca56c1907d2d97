import SwiftCompilerPlugin
@_spi(PluginMessage) import SwiftCompilerPluginMessageHandling
import SwiftSyntaxMacros

@main
package struct ObservableMacrosPlugin: CompilerPlugin {
    package init() {}

    package let providingMacros: [Macro.Type] = [
        ObservedMacro.self,
        KeyValueObservableMacro.self,
        UnobservedMacro.self,
    ]

    /// swift-syntax's message loop on `PluginConnection` (why: see there) where the C library gives
    /// it what it needs; elsewhere on swift-syntax's own connection.
    static func main() throws {
        #if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
        let connection = try PluginConnection.standardIO(shortcut: ExpansionShortcut(macros: Self().providingMacros))
        #else
        let connection = try StandardIOMessageConnection()
        #endif
        let listener = CompilerPluginMessageListener(connection: connection, provider: MacroProvider(Self()))
        // The loop throws in newer swift-syntax releases; a throwing function type holds either.
        let run: () throws -> Void = listener.main
        try run()
    }
}

/// The plugin's macros by name, for the message loop.
package struct MacroProvider: PluginProvider {
    let macros: [Macro.Type]

    package init(_ plugin: some CompilerPlugin) {
        macros = plugin.providingMacros
    }

    package func resolveMacro(moduleName: String, typeName: String) throws -> Macro.Type {
        let name = "\(moduleName).\(typeName)"
        guard let macro = macros.first(where: { String(reflecting: $0) == name }) else {
            throw MacroNotFound(name: name)
        }
        return macro
    }
}

package struct MacroNotFound: Error, CustomStringConvertible {
    package let name: String
    package var description: String { "macro implementation type '\(name)' is not in the ObservableMacros plugin" }
}
