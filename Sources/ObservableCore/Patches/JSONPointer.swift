/// A JSON Pointer (RFC 6901): the way from a document's root to one value, as reference tokens
/// (`/chapters/0/title` is `chapters`, `0`, `title`). The empty pointer is the whole document.
///
/// In its string form each token follows a `/`, with `~` written `~0` and `/` written `~1`:
///
/// ```swift
/// let pointer = try JSONPointer("/a~1b/m~0n")
/// print(pointer.tokens)  // ["a/b", "m~n"]
/// print(pointer)  // /a~1b/m~0n
/// ```
public struct JSONPointer: Hashable, Sendable, CustomStringConvertible {
    /// The reference tokens, unescaped, from the root.
    public let tokens: [String]

    /// The pointer made of `tokens`, which may hold any characters (they are escaped when written).
    public init(tokens: [String]) {
        self.tokens = tokens
    }

    /// Parses a pointer's string form.
    ///
    /// - Throws: ``JSONPointer/SyntaxError`` naming the pointer, when it does not start with `/` (and is
    ///   not empty) or holds a `~` not followed by `0` or `1`.
    public init(_ string: String) throws(SyntaxError) {
        guard !string.isEmpty else {
            self.init(tokens: [])
            return
        }
        guard string.first == "/" else { throw SyntaxError(pointer: string, reason: .missingLeadingSlash) }
        var tokens: [String] = []
        for escaped in string.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            guard let token = Self.unescape(escaped) else {
                throw SyntaxError(pointer: string, reason: .invalidEscape)
            }
            tokens.append(token)
        }
        self.init(tokens: tokens)
    }

    /// The string form: each token after a `/`, `~` as `~0` and `/` as `~1`.
    public var description: String {
        tokens.map { "/" + Self.escape($0) }.joined()
    }

    /// This pointer, one token deeper.
    public func appending(_ token: String) -> JSONPointer {
        JSONPointer(tokens: tokens + [token])
    }

    /// This pointer, one array element deeper.
    public func appending(index: Int) -> JSONPointer {
        appending(String(index))
    }

    /// The pointer to the value holding this one; `nil` for the whole document.
    public var parent: JSONPointer? {
        tokens.isEmpty ? nil : JSONPointer(tokens: Array(tokens.dropLast()))
    }

    /// The token as an array index, as RFC 6901 writes one: `0`, or digits not starting with `0`;
    /// `nil` otherwise (`-`, the element after the last, included) or when it does not fit an `Int`.
    public static func arrayIndex(_ token: String) -> Int? {
        guard let first = token.utf8.first,
            token.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        guard first != UInt8(ascii: "0") || token.utf8.count == 1 else { return nil }
        return Int(token)
    }

    /// Why a string is not a JSON Pointer.
    public struct SyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
        /// What is wrong with it.
        public enum Reason: Hashable, Sendable {
            /// A pointer that is not empty starts with `/`.
            case missingLeadingSlash
            /// A `~` is followed by `0` or `1` only.
            case invalidEscape
        }

        /// The string that was parsed.
        public let pointer: String
        /// What is wrong with it.
        public let reason: Reason

        public var description: String {
            switch reason {
            case .missingLeadingSlash: "'\(pointer)' is not a JSON Pointer: it does not start with '/'"
            case .invalidEscape: "'\(pointer)' is not a JSON Pointer: '~' is followed by neither '0' nor '1'"
            }
        }
    }

    private static func escape(_ token: String) -> String {
        guard token.contains(where: { $0 == "~" || $0 == "/" }) else { return token }
        return token.replacing("~", with: "~0").replacing("/", with: "~1")
    }

    /// `~1` is `/` and `~0` is `~`, read left to right, so that `~01` is `~1` (RFC 6901, section 4).
    private static func unescape(_ escaped: Substring) -> String? {
        guard escaped.contains("~") else { return String(escaped) }
        var token = ""
        var characters = escaped.makeIterator()
        while let character = characters.next() {
            guard character == "~" else {
                token.append(character)
                continue
            }
            switch characters.next() {
            case "0": token.append("~")
            case "1": token.append("/")
            default: return nil
            }
        }
        return token
    }
}

extension JSONPointer: Codable {
    /// Decodes a pointer from its string form.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let string = try container.decode(String.self)
        do {
            try self.init(string)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    /// Encodes the pointer as its string form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
