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
        let provider = MacroProvider(Self())
        #if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
        let connection = try PluginConnection.standardIO(shortcut: ExpansionShortcut(provider))
        #else
        let connection = try StandardIOMessageConnection()
        #endif
        let listener = CompilerPluginMessageListener(connection: connection, provider: provider)
        // The loop throws in newer swift-syntax releases; a throwing function type holds either.
        let run: () throws -> Void = listener.main
        try run()
    }
}

/// The plugin's macros by name (`Module.Type`, as the compiler names them), for the message loop
/// and its shortcut.
package struct MacroProvider: PluginProvider {
    private let macros: [String: Macro.Type]

    package init(_ plugin: some CompilerPlugin) {
        var byName: [String: Macro.Type] = [:]
        for macro in plugin.providingMacros { byName[String(reflecting: macro)] = macro }
        macros = byName
    }

    package func resolveMacro(moduleName: String, typeName: String) throws -> Macro.Type {
        let name = "\(moduleName).\(typeName)"
        guard let macro = macros[name] else { throw MacroNotFound(name: name) }
        return macro
    }
}

package struct MacroNotFound: Error, CustomStringConvertible {
    package let name: String
    package var description: String { "macro implementation type '\(name)' is not in the ObservableMacros plugin" }
}
