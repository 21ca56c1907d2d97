/// An encoder that keeps nothing: running an object's `encode(to:)` into it runs the getters of what
/// the object encodes, and nothing else (a value handed to it is not encoded in turn).
struct DiscardingEncoder: Encoder {
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy _: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(Keyed())
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { Unkeyed() }

    func singleValueContainer() -> any SingleValueEncodingContainer { Single() }

    private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        var codingPath: [any CodingKey] { [] }
        mutating func encodeNil(forKey _: Key) {}
        mutating func encode<T: Encodable>(_: T, forKey _: Key) {}
        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy _: NestedKey.Type, forKey _: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(Keyed<NestedKey>())
        }
        mutating func nestedUnkeyedContainer(forKey _: Key) -> any UnkeyedEncodingContainer { Unkeyed() }
        mutating func superEncoder() -> any Encoder { DiscardingEncoder() }
        mutating func superEncoder(forKey _: Key) -> any Encoder { DiscardingEncoder() }
    }

    private struct Unkeyed: UnkeyedEncodingContainer {
        var codingPath: [any CodingKey] { [] }
        private(set) var count = 0
        mutating func encodeNil() { count += 1 }
        mutating func encode<T: Encodable>(_: T) { count += 1 }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type) -> KeyedEncodingContainer<
            NestedKey
        > {
            KeyedEncodingContainer(Keyed<NestedKey>())
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { Unkeyed() }
        mutating func superEncoder() -> any Encoder { DiscardingEncoder() }
    }

    private struct Single: SingleValueEncodingContainer {
        var codingPath: [any CodingKey] { [] }
        mutating func encodeNil() {}
        mutating func encode<T: Encodable>(_: T) {}
    }
}
