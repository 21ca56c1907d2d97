/// Reads a lent value of one property's type as a `KeyedValue`. Assumes, as `BorrowedValue`, every
/// value is of that type. Proved by `KeyedValueTests`.
struct KeyedValueReader {
    /// The type of values of 8 bytes kept as bytes, which a caller reads with `word`; `nil` for any
    /// other type.
    let wordType: Any.Type?
    /// Reads a value of the type, through a call.
    private let read: (BorrowedValue) -> KeyedValue

    init(for type: Any.Type) {
        func reader<Value>(_: Value.Type) -> KeyedValueReader {
            if Value.self is any OptionalProtocol.Type {
                return KeyedValueReader(wordType: nil) { KeyedValue($0.read(as: Value.self)) }
            }
            if Value.self == String.self {
                // Made for `String` itself, so that it is kept without a cast.
                return KeyedValueReader(wordType: nil) { KeyedValue(keeping: $0.read(as: String.self)) }
            }
            guard KeyedValue.keepsBytes(Value.self) else {
                // As `Any`, so that a value is kept by its dynamic type: an `Any` holding a number
                // as bytes, an object of a protocol type as itself.
                return KeyedValueReader(wordType: nil) { KeyedValue($0.read(as: Value.self)) }
            }
            let isWord = MemoryLayout<Value>.size == MemoryLayout<UInt64>.size
            return KeyedValueReader(wordType: isWord ? Value.self : nil) {
                KeyedValue(bytesOf: $0.read(as: Value.self))
            }
        }
        self = _openExistential(type, do: reader)
    }

    private init(wordType: Any.Type?, read: @escaping (BorrowedValue) -> KeyedValue) {
        self.wordType = wordType
        self.read = read
    }

    @inline(__always)
    func callAsFunction(_ value: BorrowedValue) -> KeyedValue {
        read(value)
    }

    /// Reads `value` as `callAsFunction` does, a value of 8 bytes without a call.
    @inline(__always)
    func kept(_ value: BorrowedValue) -> KeyedValue {
        if let wordType { return KeyedValue(wordType, bytes: (Self.word(value), 0)) }
        return read(value)
    }

    /// The 8 bytes of `value`, of a type that is a reader's `wordType`.
    @inline(__always)
    static func word(_ value: BorrowedValue) -> UInt64 {
        value.address.loadUnaligned(as: UInt64.self)
    }
}
