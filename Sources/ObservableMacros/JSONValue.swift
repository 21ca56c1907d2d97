// A JSON value read from the compiler's message bytes, for `ExpansionShortcut`: swift-syntax's
// `Decodable` path was a fifth of a debug-built plugin's time per request, most of it generic
// machinery rather than reading bytes.
//
// Unsafe code: reads a buffer the caller keeps alive for the call, one byte at a time behind a bounds
// check or inside `memchr`'s count. It assumes UTF-8 input (as the compiler writes it); what is not
// JSON gives nil, and the message then goes to swift-syntax's decoder. Proved by `ExpansionShortcutTests` (values,
// escapes, surrogate pairs, malformed input) and by every build of the tests, whose expansions go
// through it.

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// Only the plugin's own connection uses it, built where the C library gives what it needs.
#if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
/// A JSON value: what the shortcut reads of a request.
package enum JSONValue: Equatable {
    case object([String: JSONValue])
    case array([JSONValue])
    case string(String)
    /// A number's text, as written: the shortcut reads only the protocol version.
    case number(String)
    case bool(Bool)
    case null

    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    package var string: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }

    /// The value of `bytes`, or nil if they are not one JSON value (whitespace aside).
    package init?(parsing bytes: UnsafeBufferPointer<UInt8>) {
        var reader = Reader(bytes: bytes)
        guard let value = reader.value() else { return nil }
        reader.skipWhitespace()
        guard reader.index == bytes.count else { return nil }
        self = value
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipWhitespace() {
            while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
        }

        mutating func consume(_ byte: UInt8) -> Bool {
            skipWhitespace()
            guard current == byte else { return false }
            index += 1
            return true
        }

        mutating func value() -> JSONValue? {
            skipWhitespace()
            switch current {
            case UInt8(ascii: "{"): return object()
            case UInt8(ascii: "["): return array()
            case UInt8(ascii: "\""): return string().map(JSONValue.string)
            case UInt8(ascii: "t"): return literal("true", .bool(true))
            case UInt8(ascii: "f"): return literal("false", .bool(false))
            case UInt8(ascii: "n"): return literal("null", .null)
            case .some(let byte) where byte == UInt8(ascii: "-") || (0x30...0x39).contains(byte): return number()
            default: return nil
            }
        }

        mutating func object() -> JSONValue? {
            index += 1
            var members: [String: JSONValue] = [:]
            if consume(UInt8(ascii: "}")) { return .object(members) }
            repeat {
                skipWhitespace()
                guard current == UInt8(ascii: "\""), let key = string(), consume(UInt8(ascii: ":")),
                    let value = value()
                else { return nil }
                members[key] = value
            } while consume(UInt8(ascii: ","))
            return consume(UInt8(ascii: "}")) ? .object(members) : nil
        }

        mutating func array() -> JSONValue? {
            index += 1
            var elements: [JSONValue] = []
            if consume(UInt8(ascii: "]")) { return .array(elements) }
            repeat {
                guard let element = value() else { return nil }
                elements.append(element)
            } while consume(UInt8(ascii: ","))
            return consume(UInt8(ascii: "]")) ? .array(elements) : nil
        }

        mutating func literal(_ word: StaticString, _ value: JSONValue) -> JSONValue? {
            let count = word.utf8CodeUnitCount
            guard bytes.count - index >= count else { return nil }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return nil }
            index += count
            return value
        }

        mutating func number() -> JSONValue? {
            let start = index
            while let byte = current,
                byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
                    || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") || (0x30...0x39).contains(byte)
            {
                index += 1
            }
            return .number(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
        }

        /// A string from its opening quote: the runs between escapes are found by `memchr` and copied
        /// whole. (A raw control character inside, which JSON forbids and the compiler never writes,
        /// is kept rather than refused.)
        mutating func string() -> String? {
            index += 1
            var text = ""
            while let quote = offset(of: UInt8(ascii: "\""), before: bytes.count) {
                let backslash = offset(of: UInt8(ascii: "\\"), before: quote)
                let runEnd = backslash ?? quote
                text += String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<runEnd]), as: UTF8.self)
                index = runEnd + 1
                guard backslash != nil else { return text }
                guard let escaped = escape() else { return nil }
                text.unicodeScalars.append(escaped)
            }
            return nil
        }

        /// The offset of the first `byte` from `index` up to `end`.
        func offset(of byte: UInt8, before end: Int) -> Int? {
            guard end > index, let base = bytes.baseAddress,
                let found = memchr(base + index, Int32(byte), end - index)
            else { return nil }
            return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
        }

        /// The character an escape stands for, from the byte after its backslash.
        mutating func escape() -> Unicode.Scalar? {
            guard let byte = current else { return nil }
            index += 1
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return Unicode.Scalar(byte)
            case UInt8(ascii: "b"): return "\u{08}"
            case UInt8(ascii: "f"): return "\u{0C}"
            case UInt8(ascii: "n"): return "\n"
            case UInt8(ascii: "r"): return "\r"
            case UInt8(ascii: "t"): return "\t"
            case UInt8(ascii: "u"):
                guard let unit = hex4() else { return nil }
                guard (0xD800..<0xDC00).contains(unit) else { return Unicode.Scalar(unit) }
                // A high surrogate: its low half must follow as an escape of its own.
                guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u")
                else { return nil }
                index += 2
                guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                return Unicode.Scalar(0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00))
            default: return nil
            }
        }

        mutating func hex4() -> UInt16? {
            guard bytes.count - index >= 4 else { return nil }
            var value: UInt16 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt8
                switch byte {
                case 0x30...0x39: digit = byte - 0x30
                case 0x41...0x46: digit = byte - 0x41 + 10
                case 0x61...0x66: digit = byte - 0x61 + 10
                default: return nil
                }
                value = value << 4 | UInt16(digit)
                index += 1
            }
            return value
        }
    }
}
#endif
