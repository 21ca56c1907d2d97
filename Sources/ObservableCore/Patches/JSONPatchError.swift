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
        /// A `remove` or `move` of the whole document.
        case wholeDocument
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
            case .wholeDocument: "the whole document cannot be removed or moved"
            }
        return "operation \(index) (\(operation)): \(why)"
    }
}
