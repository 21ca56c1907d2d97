/// The calls in the `Codable` conformance that `@KeyValueObservable` writes for a class declaring
/// `Codable`, `Encodable` or `Decodable` (the compiler cannot synthesise it: an observed property is
/// computed, and the macro's storage and slot are stored).
///
/// A property's type is often inferred (`var volume = 3`), which a macro cannot see, so it comes
/// from the property's key path (decoding; an assignment's destination is ambiguous for a `weak`
/// property) or from the value (encoding); a type written out is passed as `Type.self`, which the
/// compiler checks faster than a key path. The optional overloads are the more specific, so an
/// optional property (also behind a type alias) is decoded with `decodeIfPresent` and encoded with
/// `encodeIfPresent`, as the compiler's synthesis does.
extension KeyedDecodingContainer {
    @inlinable
    public func _observedDecode<Root, Value: Decodable>(_: KeyPath<Root, Value>, forKey key: Key) throws -> Value {
        try decode(Value.self, forKey: key)
    }

    @inlinable
    public func _observedDecode<Root, Value: Decodable>(_: KeyPath<Root, Value?>, forKey key: Key) throws -> Value? {
        try decodeIfPresent(Value.self, forKey: key)
    }

    @inlinable
    public func _observedDecode<Value: Decodable>(_: Value.Type, forKey key: Key) throws -> Value {
        try decode(Value.self, forKey: key)
    }

    @inlinable
    public func _observedDecode<Value: Decodable>(_: Value?.Type, forKey key: Key) throws -> Value? {
        try decodeIfPresent(Value.self, forKey: key)
    }
}

extension KeyedEncodingContainer {
    @inlinable
    public mutating func _observedEncode<Value: Encodable>(_ value: Value, forKey key: Key) throws {
        try encode(value, forKey: key)
    }

    @inlinable
    public mutating func _observedEncode<Value: Encodable>(_ value: Value?, forKey key: Key) throws {
        try encodeIfPresent(value, forKey: key)
    }
}
