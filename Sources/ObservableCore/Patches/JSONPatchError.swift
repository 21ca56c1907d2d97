/// Why a patch was not applied: which operation, where, and why. Nothing of the patch was applied.
public struct JSONPatchError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Why an operation cannot be applied.
    public enum Reason: Error, Hashable, Sendable {
        /// Nothing is at the operation's `path` (or, for `move` and `copy`, its `from`).
        case notFound(JSONPointer)
        /// The token names no element of the array it is applied to: not an index, or out of range.
        case invalidIndex(String)
        /// A `test` found this value instead of the one it carries (`nil`: nothing at all).
        case testFailed(found: JSONValue?)
        /// A `move` into the value it moves.
        case moveIntoItself
        /// A `remove` or `move` of the whole document, or, applied to objects, any change of the root
        /// object itself.
        case wholeDocument
        /// The type has no property of that name that a patch may reach (as a string key may: one that
        /// is private is not told apart from one that is missing), or does not encode it.
        case noProperty(String, type: String)
        /// The value does not decode as the type of the place it goes to.
        case typeMismatch(type: String, String)
        /// A `remove` of a property that is not optional.
        case notRemovable(String)
        /// The document or a class in it is not `Codable`, which applying a patch to objects needs.
        case notCodable(type: String)
    }

    /// The position of the operation in the patch.
    public let index: Int
    /// The operation.
    public let operation: JSONPatchOperation
    /// Why it cannot be applied.
    public let reason: Reason

    public var description: String {
        let why =
            switch reason {
            case .notFound(let pointer): "nothing at \(pointer)"
            case .invalidIndex(let token): "'\(token)' is not an index of the array"
            case .testFailed(let found): "the value is \(found.map(\.description) ?? "missing")"
            case .moveIntoItself: "a value cannot move into itself"
            case .wholeDocument: "the whole document cannot be removed, moved or replaced"
            case .noProperty(let name, let type): "\(type) has no property '\(name)' a patch can reach"
            case .typeMismatch(let type, let message): "the value is not a \(type): \(message)"
            case .notRemovable(let name): "'\(name)' is not optional, so it cannot be removed"
            case .notCodable(let type): "\(type) is not Codable"
            }
        return "operation \(index) (\(operation)): \(why)"
    }
}
