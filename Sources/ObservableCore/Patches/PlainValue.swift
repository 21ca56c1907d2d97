/// A plain value of a set as a journal keeps it (`KeyedValue.isPlain`): its type and bytes, or a
/// `String`. Smaller than the `KeyedValue` it came from, so that keeping and reading it copies less.
enum PlainValue {
    case none
    case bytes(Any.Type, KeyedValue.Bytes)
    case string(String)

    /// `kept`, which holds no reference (`isPlain`).
    init(_ kept: KeyedValue) {
        if let type = kept.bytesType {
            self = .bytes(type, kept.bytes)
        } else if let string = kept.string {
            self = .string(string)
        } else {
            self = .none
        }
    }

    var isNone: Bool {
        if case .none = self { true } else { false }
    }

    /// The value as a change keeps it.
    var kept: KeyedValue {
        switch self {
        case .none: .none
        case .bytes(let type, let bytes): KeyedValue(type, bytes: bytes)
        case .string(let string): KeyedValue(keeping: string)
        }
    }
}
