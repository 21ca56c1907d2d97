/// A value of a string key path's change that is not kept as bytes (`KeyedValue`), on the heap, so
/// that a change holds references and bytes only: the compiler then makes and destroys one without
/// calling a value witness, which is most of what a change of a number costs.
@usableFromInline
final class KeyedValueBox {
    @usableFromInline let value: Any

    init(_ value: Any) {
        self.value = value
    }

    /// `value as? Value`.
    @usableFromInline @inline(never)
    func value<Value>(as _: Value.Type) -> Value? {
        value as? Value
    }
}
