// The plugin's connection to the compiler: swift-syntax's own framing and encoding, except that the
// build configuration the compiler attaches to every request is cut from the message before it is
// decoded, and that an expansion without diagnostics is written without swift-syntax's encoder. These
// macros never evaluate `#if`, and decoding that field on every request took a debug-built plugin
// longer than the expansions themselves; the encoder escapes a string a byte at a time, which was
// much of what was left (BENCHMARKS.md, "Compile time").
//
// Unsafe code: reads into a raw buffer, C searches over it and a move inside it, and C searches over
// an expansion's C string. It assumes the framing `StandardIOMessageConnection` documents (a
// little-endian 64-bit length, then JSON), JSON's rule that a quote inside a string is escaped, so
// `,"staticBuildConfiguration":"` can only be that key, and that swift-syntax's encoder sorts keys and
// escapes exactly `"`, `\` and control characters. Proved by `PluginConnectionTests` (cuts decoded by
// swift-syntax, a message through a pipe, a macro's response identical on both connections, every
// byte value escaped as swift-syntax's encoder escapes it) and by every build of the tests, whose
// expansions go through it.

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

#if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
@_spi(PluginMessage) import SwiftCompilerPluginMessageHandling

/// Receives the compiler's messages without their build configuration; sends as swift-syntax does.
package struct PluginConnection: MessageConnection {
    private let input: CInt
    private let outputDescriptor: CInt
    private let output: StandardIOMessageConnection
    /// Answers the requests it takes on as they arrive, so that only the others are decoded.
    private let shortcut: ExpansionShortcut?

    package init(input: CInt, output: CInt, shortcut: ExpansionShortcut? = nil) {
        self.input = input
        outputDescriptor = output
        self.output = StandardIOMessageConnection(inputFileDescriptor: input, outputFileDescriptor: output)
        self.shortcut = shortcut
    }

    /// Messages on copies of stdin and stdout, as swift-syntax sets them up: stdin closed so that a
    /// stray read fails instead of waiting, stdout sent to stderr so that a print cannot corrupt a
    /// message.
    static func standardIO(shortcut: ExpansionShortcut?) throws -> PluginConnection {
        let input = dup(STDIN_FILENO)
        guard input >= 0 else { throw PluginConnectionError.system("dup(stdin)", errno) }
        guard close(STDIN_FILENO) == 0 else { throw PluginConnectionError.system("close(stdin)", errno) }
        let output = dup(STDOUT_FILENO)
        guard output >= 0 else { throw PluginConnectionError.system("dup(stdout)", errno) }
        guard dup2(STDERR_FILENO, STDOUT_FILENO) >= 0 else {
            throw PluginConnectionError.system("dup2(stderr, stdout)", errno)
        }
        return PluginConnection(input: input, output: output, shortcut: shortcut)
    }

    package func sendMessage<TX: Encodable>(_ message: TX) throws {
        if let response = message as? PluginToHostMessage,
            case .expandMacroResult(let source?, let diagnostics) = response, diagnostics.isEmpty
        {
            try send(Self.expansionResult(source))
        } else {
            try output.sendMessage(message)
        }
    }

    /// The JSON swift-syntax's encoder writes for an expansion without diagnostics (its keys sorted).
    package static func expansionResult(_ source: String) -> [UInt8] {
        var json = Array(#"{"expandMacroResult":{"diagnostics":[],"expandedSource":""#.utf8)
        json.reserveCapacity(json.count + source.utf8.count + source.utf8.count / 16 + 4)
        appendEscaped(source, to: &json)
        json += #""}}"#.utf8
        return json
    }

    /// The bytes JSON escapes: `"`, `\` and the control characters (NUL ends the C string instead).
    private static let escaped: [CChar] = [0x22, 0x5C] + (1..<0x20).map { CChar($0) } + [0]

    /// `text` as the contents of a JSON string, escaped as swift-syntax's encoder escapes it. The runs
    /// between escapes are found by `strcspn` and copied whole.
    static func appendEscaped(_ text: String, to json: inout [UInt8]) {
        let count = text.utf8.count
        text.withCString { start in
            escaped.withUnsafeBufferPointer { escaped in
                var index = 0
                while index < count {
                    let run = strcspn(start + index, escaped.baseAddress!)
                    let copied = min(run, count - index)
                    json.append(contentsOf: UnsafeRawBufferPointer(start: start + index, count: copied))
                    index += run
                    guard index < count else { break }
                    json += escape(UInt8(bitPattern: start[index]))
                    index += 1
                }
            }
        }
    }

    private static func escape(_ byte: UInt8) -> [UInt8] {
        switch byte {
        case UInt8(ascii: "\""): return Array(#"\""#.utf8)
        case UInt8(ascii: "\\"): return Array(#"\\"#.utf8)
        case 0x08: return Array(#"\b"#.utf8)
        case 0x09: return Array(#"\t"#.utf8)
        case 0x0A: return Array(#"\n"#.utf8)
        case 0x0C: return Array(#"\f"#.utf8)
        case 0x0D: return Array(#"\r"#.utf8)
        default:
            let hex = Array("0123456789ABCDEF".utf8)
            return Array(#"\u00"#.utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
        }
    }

    /// Writes one message as `StandardIOMessageConnection` frames it.
    private func send(_ payload: [UInt8]) throws {
        var header = UInt64(payload.count).littleEndian
        try withUnsafeBytes(of: &header) { try writeAll($0) }
        try payload.withUnsafeBytes { try writeAll($0) }
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
        guard let base = bytes.baseAddress else { return }
        var written = 0
        while written < bytes.count {
            let wrote = write(outputDescriptor, base + written, bytes.count - written)
            if wrote > 0 {
                written += wrote
            } else if wrote == 0 || errno != EINTR {
                throw PluginConnectionError.system("write", wrote == 0 ? EIO : errno)
            }
        }
    }

    /// The next message the shortcut leaves to swift-syntax's handler, decoded; those it answers are
    /// answered here, in the order they came.
    package func waitForNextMessage<RX: Decodable>(_ type: RX.Type) throws -> RX? {
        while true {
            var header: UInt64 = 0
            guard try withUnsafeMutableBytes(of: &header, fill) else { return nil }
            let count = Int(UInt64(littleEndian: header))
            // An empty message is the host's signal to stop, as in swift-syntax's connection.
            if count == 0 { return nil }
            let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: count)
            defer { buffer.deallocate() }
            guard try fill(UnsafeMutableRawBufferPointer(buffer)) else { throw PluginConnectionError.endOfInput }
            let message = UnsafeBufferPointer(rebasing: buffer[..<Self.cutBuildConfiguration(buffer)])
            if let source = shortcut?.expandedSource(for: message) {
                try send(Self.expansionResult(source))
                continue
            }
            return try JSON.decode(type, from: message)
        }
    }

    /// Fills `buffer` from the input; false if the input ended before its first byte.
    private func fill(_ buffer: UnsafeMutableRawBufferPointer) throws -> Bool {
        guard let base = buffer.baseAddress else { return true }
        var filled = 0
        while filled < buffer.count {
            let got = read(input, base + filled, buffer.count - filled)
            if got > 0 {
                filled += got
            } else if got == 0 {
                if filled == 0 { return false }
                throw PluginConnectionError.endOfInput
            } else if errno != EINTR {
                throw PluginConnectionError.system("read", errno)
            }
        }
        return true
    }

    private static let key = Array(#","staticBuildConfiguration":""#.utf8)

    /// Removes `,"staticBuildConfiguration":"…"` from the JSON in `message`, moving what follows it
    /// down; returns the length left. A message without that pair, or whose value does not end, is
    /// left whole and decoded as it came.
    package static func cutBuildConfiguration(_ message: UnsafeMutableBufferPointer<UInt8>) -> Int {
        guard let base = message.baseAddress, let cut = buildConfigurationRange(in: UnsafeBufferPointer(message))
        else { return message.count }
        memmove(base + cut.lowerBound, base + cut.upperBound, message.count - cut.upperBound)
        return message.count - cut.count
    }

    private static func buildConfigurationRange(in message: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        guard let base = message.baseAddress else { return nil }
        let end = message.count
        var from = 0
        while end - from >= key.count {
            guard let found = memchr(base + from, Int32(UInt8(ascii: ",")), end - from) else { return nil }
            let comma = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
            from = comma + 1
            guard end - comma >= key.count, key.withUnsafeBytes({ memcmp(found, $0.baseAddress!, key.count) }) == 0
            else { continue }
            guard let valueEnd = stringEnd(in: message, from: comma + key.count) else { return nil }
            return comma..<valueEnd
        }
        return nil
    }

    /// The index after the quote that closes the JSON string whose contents start at `start`.
    private static func stringEnd(in message: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let base = message.baseAddress else { return nil }
        var from = start
        while from < message.count {
            guard let found = memchr(base + from, Int32(UInt8(ascii: "\"")), message.count - from) else { return nil }
            let quote = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
            var backslashes = 0
            while quote - backslashes > start, message[quote - backslashes - 1] == UInt8(ascii: "\\") {
                backslashes += 1
            }
            if backslashes % 2 == 0 { return quote + 1 }
            from = quote + 1
        }
        return nil
    }
}

/// Why the connection stopped; the listener prints it and exits, as with swift-syntax's connection.
package enum PluginConnectionError: Error, CustomStringConvertible {
    case endOfInput
    case system(String, CInt)

    package var description: String {
        switch self {
        case .endOfInput: "the compiler's message ended early"
        case .system(let call, let code): "\(call) failed: \(String(cString: strerror(code)))"
        }
    }
}
#endif
