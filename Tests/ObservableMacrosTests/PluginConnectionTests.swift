#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

#if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
import ObservableMacros
@_spi(PluginMessage) import SwiftCompilerPluginMessageHandling
import Testing

/// The plugin's connection: the build configuration cut from the compiler's messages and nothing
/// else, so that every expansion is what swift-syntax's own connection would have produced.
@Suite struct PluginConnectionTests {
    /// A request as the compiler sends it (its keys sorted, the configuration last), for `count`'s
    /// `@Observed` accessors.
    static let request = #"""
        {"expandAttachedMacro":{"attributeSyntax":{"kind":"attribute","location":{"column":5,"fileID":"M/M.swift","fileName":"/m/M.swift","line":2,"offset":30},"source":"\n    @Observed "},"declSyntax":{"kind":"declaration","location":{"column":5,"fileID":"M/M.swift","fileName":"/m/M.swift","line":2,"offset":30},"source":"\n    @Observed var count: Int = 0"},"discriminator":"$s1M5ModelC5count8ObservedfMa_","lexicalContext":[{"kind":"declaration","location":{"column":0,"fileID":"","fileName":"","line":0,"offset":0},"source":"\nfinal class Model: KeyValueObservable {}"}],"macro":{"moduleName":"ObservableMacros","name":"Observed","typeName":"ObservedMacro"},"macroRole":"accessor","staticBuildConfiguration":"{\"attributes\":[\"available\",\"objc\"],\"customConditions\":[\"DEBUG\"],\"features\":[\"StrictConcurrency\"],\"targetOSs\":[\"Linux\"],\"targetPointerBitWidth\":64}"}}
        """#

    /// The compiler's first message, which says which responses it understands.
    static let capabilityRequest = #"{"getCapability":{"capability":{"protocolVersion":7}}}"#

    static func cut(_ json: String) -> String {
        var bytes = Array(json.utf8)
        let kept = bytes.withUnsafeMutableBufferPointer { PluginConnection.cutBuildConfiguration($0) }
        return String(decoding: bytes[..<kept], as: UTF8.self)
    }

    @Test(arguments: [
        (#"{"m":{"a":1,"staticBuildConfiguration":"{\"x\":[\"y\"]}"}}"#, #"{"m":{"a":1}}"#),
        // A value ending in an escaped backslash, and a key after the cut pair.
        (#"{"m":{"a":1,"staticBuildConfiguration":"{\"x\":\"a\\\\\"}\\","z":2}}"#, #"{"m":{"a":1,"z":2}}"#),
        (#"{"a":"x,","staticBuildConfiguration":""}"#, #"{"a":"x,"}"#),
    ])
    func cutsThePair(message: String, expected: String) {
        #expect(Self.cut(message) == expected)
    }

    @Test(arguments: [
        // No configuration.
        capabilityRequest,
        // The key first in its object: no comma before it, so it is decoded rather than guessed at.
        #"{"staticBuildConfiguration":"{}","a":1}"#,
        // The key's text inside a string (the user's source), where its quotes are escaped.
        #"{"source":"f(a,\"staticBuildConfiguration\":\"x\")","b":1}"#,
        // A value that never ends.
        #"{"a":1,"staticBuildConfiguration":"{\"x\":[\"y\"]"#,
        "",
    ])
    func leavesTheRestWhole(message: String) {
        #expect(Self.cut(message) == message)
    }

    /// Frames messages as the compiler does (a little-endian 64-bit length, then the JSON) into a
    /// pipe whose other end the connection reads.
    static func piped(_ messages: [String], then tail: [UInt8] = []) throws -> (Piped, close: () -> Void) {
        var bytes: [UInt8] = []
        for message in messages {
            withUnsafeBytes(of: UInt64(message.utf8.count).littleEndian) { bytes += $0 }
            bytes += message.utf8
        }
        bytes += tail
        var toPlugin: [CInt] = [0, 0]
        var fromPlugin: [CInt] = [0, 0]
        try #require(pipe(&toPlugin) == 0 && pipe(&fromPlugin) == 0)
        // A pipe holds 64 KiB on Linux and macOS; these messages (and their responses, read once the
        // loop has ended) must fit.
        try #require(bytes.count < 48_000)
        let written = bytes.withUnsafeBytes { write(toPlugin[1], $0.baseAddress, $0.count) }
        try #require(written == bytes.count)
        close(toPlugin[1])
        let piped = Piped(input: toPlugin[0], output: fromPlugin[1], response: fromPlugin[0])
        let closeAll = {
            for descriptor in [toPlugin[0], fromPlugin[0], fromPlugin[1]] { close(descriptor) }
        }
        return (piped, closeAll)
    }

    /// The plugin's ends of two pipes, and the end its responses come out of.
    struct Piped {
        let input: CInt
        let output: CInt
        let response: CInt
        var plugin: PluginConnection { PluginConnection(input: input, output: output) }
    }

    @Test func readsFramedMessagesUntilTheEnd() throws {
        let (piped, closeAll) = try Self.piped([
            Self.capabilityRequest, Self.request,
        ])
        defer { closeAll() }
        let connection = piped.plugin
        let first = try #require(try connection.waitForNextMessage(HostToPluginMessage.self))
        guard case .getCapability(let capability) = first else {
            Issue.record("expected the capability request, got \(first)")
            return
        }
        #expect(capability != nil)
        let second = try #require(try connection.waitForNextMessage(HostToPluginMessage.self))
        let text = String(decoding: try JSON.encode(second), as: UTF8.self)
        #expect(text.contains(#"@Observed var count: Int = 0"#))
        #expect(text.contains(#""macroRole":"accessor""#))
        #expect(!text.contains("staticBuildConfiguration"))
        #expect(!text.contains("customConditions"))
        #expect(try connection.waitForNextMessage(HostToPluginMessage.self) == nil)
    }

    @Test func aMessageCutShortIsAnError() throws {
        // A header announcing 100 bytes, followed by 3.
        var header: [UInt8] = []
        withUnsafeBytes(of: UInt64(100).littleEndian) { header += $0 }
        let (piped, closeAll) = try Self.piped([], then: header + Array("{\"a".utf8))
        defer { closeAll() }
        let connection = piped.plugin
        #expect(throws: PluginConnectionError.self) {
            _ = try connection.waitForNextMessage(HostToPluginMessage.self)
        }
    }

    /// What the plugin's message loop writes back for `requests`, read on our connection or on
    /// swift-syntax's own.
    static func responses(to requests: [String], onOurConnection: Bool) throws -> String {
        // Its output is closed before its responses are read, so each end is closed here, once: tests
        // run in parallel, and a descriptor closed twice may by then be another test's.
        let (connection, _) = try piped(requests)
        var outputIsOpen = true
        defer {
            if outputIsOpen { close(connection.output) }
            close(connection.input)
            close(connection.response)
        }
        let provider = MacroProvider(ObservableMacrosPlugin())
        // The loop throws in newer swift-syntax releases; a throwing function type holds either.
        let run: () throws -> Void
        if onOurConnection {
            // As the plugin runs it: with the shortcut that answers our attached macros' requests.
            let ours = PluginConnection(
                input: connection.input, output: connection.output,
                shortcut: ExpansionShortcut(MacroProvider(ObservableMacrosPlugin())))
            run = CompilerPluginMessageListener(connection: ours, provider: provider).main
        } else {
            let theirs = StandardIOMessageConnection(
                inputFileDescriptor: connection.input, outputFileDescriptor: connection.output)
            run = CompilerPluginMessageListener(connection: theirs, provider: provider).main
        }
        try run()
        close(connection.output)
        outputIsOpen = false
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let got = chunk.withUnsafeMutableBytes { read(connection.response, $0.baseAddress, $0.count) }
            guard got > 0 else { break }
            bytes += chunk[..<got]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func theExpansionIsWhatTheWholeMessageGives() throws {
        let requests = [Self.capabilityRequest, Self.request]
        let ours = try Self.responses(to: requests, onOurConnection: true)
        let theirs = try Self.responses(to: requests, onOurConnection: false)
        #expect(ours == theirs)
        // An expansion, not an error both sides agree on.
        #expect(ours.contains("_$count.willSet(self"))
        #expect(!ours.contains(#""severity":"error""#))
    }

    @Test("an expansion is written as swift-syntax's encoder writes it, every byte value escaped alike")
    func expansionsAreEncodedAsSwiftSyntaxEncodes() throws {
        let everyByte = String(decoding: (0..<128).map { UInt8($0) }, as: UTF8.self)
        let texts = [
            "", "get {\n    return _x\n}", #"\.x, "quoted", back\\slash"#, "tab\t, cr\r, ff\u{0C}, bs\u{08}",
            "nul \u{0} inside", "\u{0}", "ü, 漢字, 🙂", everyByte, String(repeating: "a\n", count: 5_000),
        ]
        for text in texts {
            let theirs = try JSON.encode(PluginToHostMessage.expandMacroResult(expandedSource: text, diagnostics: []))
            let ours = PluginConnection.expansionResult(text)
            #expect(String(decoding: ours, as: UTF8.self) == String(decoding: theirs, as: UTF8.self))
            #expect(ours == theirs)
        }
    }

    @Test func anUnknownMacroIsNamedInTheError() {
        let error = #expect(throws: MacroNotFound.self) {
            _ = try MacroProvider(ObservableMacrosPlugin())
                .resolveMacro(moduleName: "ObservableMacros", typeName: "Nope")
        }
        #expect(error?.description.contains("'ObservableMacros.Nope'") == true)
        let found = try? MacroProvider(ObservableMacrosPlugin()).resolveMacro(
            moduleName: "ObservableMacros", typeName: "ObservedMacro")
        #expect(found.map(ObjectIdentifier.init) == ObjectIdentifier(ObservedMacro.self))
    }
}
#endif
