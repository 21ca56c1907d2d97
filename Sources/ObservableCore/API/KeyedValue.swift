/// One value of a string key path's change (`KeyedChange`), its type erased. A bitwise-copyable
/// value of up to 16 bytes (a number, a `Bool`, a small struct of them) is kept as its bytes and its
/// type, so a change is made and destroyed without calling the runtime, and a handler that names the
/// type loads it after comparing one pointer; any other value is kept as `Any`.
///
/// Assumes that when `bytesType` is set, `bytes` holds the bytes of a value of exactly that type,
/// which is bitwise-copyable, at most 16 bytes in size and aligned to at most 8 (only `init(bytesOf:)`
/// and `KeyedValueReader` make one, after `keepsBytes`), and that they are read back as that type only
/// (`value(as:)` compares first, `any` opens the type). Proved by `KeyedValueTests` (values of each
/// kind read back as themselves, as `Any` and as other types, against `as?`), under
/// AddressSanitizer in `.ci/run`.
@usableFromInline
struct KeyedValue {
    /// The type of the value kept in `bytes`; `nil` when there is none or it is `boxed`.
    @usableFromInline let bytesType: Any.Type?
    @usableFromInline let bytes: Bytes
    /// The value when it is not kept as bytes; `nil` when there is none.
    @usableFromInline let boxed: Any?

    @usableFromInline
    typealias Bytes = (UInt64, UInt64)

    /// No value: not requested, or `nil`.
    static var none: KeyedValue { KeyedValue(bytesType: nil, bytes: (0, 0), boxed: nil) }

    private init(bytesType: Any.Type?, bytes: Bytes, boxed: Any?) {
        self.bytesType = bytesType
        self.bytes = bytes
        self.boxed = boxed
    }

    /// `value`, unwrapped from any optionals (`none` for a `nil`).
    init(_ value: Any?) {
        guard let value = value.flatMap(unwrappedOptional) else {
            self = .none
            return
        }
        func keep<Opened>(_ opened: Opened) -> KeyedValue {
            Self.keepsBytes(Opened.self) ? KeyedValue(bytesOf: opened) : KeyedValue(boxing: opened)
        }
        self = _openExistential(value, do: keep)
    }

    /// `value`, of a type that `keepsBytes`, kept as its bytes.
    init<Value>(bytesOf value: Value) {
        var bytes: Bytes = (0, 0)
        withUnsafeMutableBytes(of: &bytes) { $0.storeBytes(of: value, as: Value.self) }
        self.init(bytesType: Value.self, bytes: bytes, boxed: nil)
    }

    /// `value` kept as `Any`, as it is: a value that is not bitwise-copyable or not an optional.
    init(boxing value: Any) {
        self.init(bytesType: nil, bytes: (0, 0), boxed: value)
    }

    /// A value of `type`, which `keepsBytes`, whose bytes are `bytes`.
    init(_ type: Any.Type, bytes: Bytes) {
        self.init(bytesType: type, bytes: bytes, boxed: nil)
    }

    /// Whether a `Value` is kept as its bytes.
    static func keepsBytes<Value>(_: Value.Type) -> Bool {
        _isPOD(Value.self) && MemoryLayout<Value>.size <= MemoryLayout<Bytes>.size
            && MemoryLayout<Value>.alignment <= MemoryLayout<Bytes>.alignment
    }

    /// The value as a `Value`, as `any as? Value` gives it; loaded directly when it is exactly one.
    @inlinable @inline(__always)
    func value<Value>(as _: Value.Type) -> Value? {
        guard let bytesType, bytesType == Value.self else { return cast(to: Value.self) }
        return withUnsafeBytes(of: bytes) { $0.load(as: Value.self) }
    }

    /// `any as? Value`: the value when it is not exactly a `Value` kept as bytes.
    @usableFromInline @inline(never)
    func cast<Value>(to _: Value.Type) -> Value? {
        any.flatMap { $0 as? Value }
    }

    /// The value as `Any`, `nil` for none.
    @usableFromInline
    var any: Any? {
        guard let bytesType else { return boxed }
        func load<Value>(_: Value.Type) -> Any { withUnsafeBytes(of: bytes) { $0.load(as: Value.self) } }
        return _openExistential(bytesType, do: load)
    }
}
