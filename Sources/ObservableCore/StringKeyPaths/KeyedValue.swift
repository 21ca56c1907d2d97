/// One type-erased value of a `KeyedChange`: up to 16 bitwise-copyable bytes with their type, a
/// `String` or object as itself, anything else boxed; so a change needs no value witness. Assumes
/// `bytes` hold a value of exactly `bytesType` (≤ 16 bytes, align ≤ 8), read back only as it, and a
/// `KeyedValueBox` reference is a box. Proved by `KeyedValueTests` under ASan.
@usableFromInline
struct KeyedValue {
    /// The type of the value kept in `bytes`; `nil` when there is none or it is kept otherwise.
    @usableFromInline let bytesType: Any.Type?
    @usableFromInline let bytes: Bytes
    /// The value when it is a `String`, kept without a box.
    @usableFromInline let string: String?
    /// The value when it is an object, or the box of any other value.
    @usableFromInline let reference: AnyObject?

    @usableFromInline
    typealias Bytes = (UInt64, UInt64)

    /// No value: not requested, or `nil`.
    static var none: KeyedValue { KeyedValue(nil, bytes: (0, 0)) }

    /// `value`, unwrapped from any optionals (`none` for a `nil`).
    init(_ value: Any?) {
        guard let value = value.flatMap(unwrappedOptional) else {
            self = .none
            return
        }
        func keep<Opened>(_ opened: Opened) -> KeyedValue {
            Self.keepsBytes(Opened.self) ? KeyedValue(bytesOf: opened) : KeyedValue(keeping: opened)
        }
        self = _openExistential(value, do: keep)
    }

    /// `value`, of a type that `keepsBytes`, kept as its bytes.
    init<Value>(bytesOf value: Value) {
        var bytes: Bytes = (0, 0)
        withUnsafeMutableBytes(of: &bytes) { $0.storeBytes(of: value, as: Value.self) }
        self.init(Value.self, bytes: bytes)
    }

    /// `value`, not kept as bytes, nor optional nor existential: itself, or boxed.
    init<Value>(keeping value: Value) {
        bytesType = nil
        bytes = (0, 0)
        if Value.self == String.self {
            string = (value as! String)
            reference = nil
        } else {
            string = nil
            reference = Value.self is AnyObject.Type ? value as AnyObject : KeyedValueBox(value)
        }
    }

    /// A value of `type`, which `keepsBytes`, whose bytes are `bytes`; none when `type` is `nil`.
    init(_ type: Any.Type?, bytes: Bytes) {
        bytesType = type
        self.bytes = bytes
        string = nil
        reference = nil
    }

    /// Whether the value is none, bytes or a `String`: no object, nor a box that may hold one.
    var isPlain: Bool { reference == nil }

    /// Whether the value is none or bytes: a copy of it made from `bytesType` and `bytes` holds
    /// nothing to release.
    var isBytes: Bool { string == nil && reference == nil }

    /// Whether a `Value` is kept as its bytes.
    static func keepsBytes<Value>(_: Value.Type) -> Bool {
        _isPOD(Value.self) && MemoryLayout<Value>.size <= MemoryLayout<Bytes>.size
            && MemoryLayout<Value>.alignment <= MemoryLayout<Bytes>.alignment
    }

    /// The value as a `Value`, as `any as? Value` gives it; loaded directly when it is exactly one.
    @inlinable @inline(__always)
    func value<Value>(as _: Value.Type) -> Value? {
        // Out-of-line calls take scalars: passing the value would copy it in wider loads, which stalls.
        if let bytesType {
            guard bytesType == Value.self else { return Self.cast(bytesType, bytes, to: Value.self) }
            return withUnsafeBytes(of: bytes) { $0.load(as: Value.self) }
        }
        // Folded where `Value` is known: a copy for `String`, nothing for a number.
        if let string { return string as? Value }
        return reference.flatMap { Self.cast($0, to: Value.self) }
    }

    /// `value as? Value` of the value of `type` whose bytes are `bytes`.
    @usableFromInline @inline(never)
    static func cast<Value>(_ type: Any.Type, _ bytes: Bytes, to _: Value.Type) -> Value? {
        KeyedValue(type, bytes: bytes).any.flatMap { $0 as? Value }
    }

    /// `value as? Value` of the value kept as `reference`.
    @usableFromInline @inline(never)
    static func cast<Value>(_ reference: AnyObject, to _: Value.Type) -> Value? {
        Self.value(of: reference) as? Value
    }

    /// The value kept as `reference`: the object, or the value it boxes.
    private static func value(of reference: AnyObject) -> Any {
        guard type(of: reference) == KeyedValueBox.self else { return reference }
        return unsafeDowncast(reference, to: KeyedValueBox.self).value
    }

    /// The value as `Any`, `nil` for none.
    @usableFromInline
    var any: Any? {
        guard let bytesType else { return string ?? reference.map(Self.value(of:)) }
        func load<Value>(_: Value.Type) -> Any { withUnsafeBytes(of: bytes) { $0.load(as: Value.self) } }
        return _openExistential(bytesType, do: load)
    }
}

/// A value kept neither as bytes nor as itself, on the heap, so a change holds references and bytes.
final class KeyedValueBox {
    let value: Any

    init(_ value: Any) {
        self.value = value
    }
}
