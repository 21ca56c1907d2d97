import Foundation

extension JSONValue {
    /// `value` as `JSONEncoder` writes it, with its default strategies.
    ///
    /// - Throws: What the value's `encode(to:)` throws.
    public init(encoding value: some Encodable) throws {
        self = try JSONValueEncoder.encode(value)
    }
}
