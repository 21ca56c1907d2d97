/// Why a ``JSONPatchRecorder`` cannot record a document, found when recording starts, or a value it
/// could not encode, found when the value was set.
public struct PatchRecordingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public enum Reason: Hashable, Sendable {
        /// The property's type is not `Encodable`.
        case notEncodable(type: String)
        /// The property holds objects in a set, whose elements have no position a pointer could name.
        case objectsInSet(type: String)
        /// The value's `encode(to:)` threw.
        case encodingFailed(String)
    }

    /// Where: the property as `Type.name` when recording starts, a JSON Pointer for a value set later.
    public let location: String
    /// What is wrong.
    public let reason: Reason

    public var description: String {
        switch reason {
        case .notEncodable(let type): "\(location): \(type) is not Encodable"
        case .objectsInSet(let type): "\(location): \(type) holds objects in a set, which a JSON Pointer cannot reach"
        case .encodingFailed(let message): "\(location): the value could not be encoded: \(message)"
        }
    }
}
