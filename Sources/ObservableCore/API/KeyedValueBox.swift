/// A value of a string key path's change that is kept neither as bytes nor as itself (`KeyedValue`),
/// on the heap, so that a change holds references and bytes only: the compiler then makes and
/// destroys one without calling a value witness, which is most of what a change of a number costs.
final class KeyedValueBox {
    let value: Any

    init(_ value: Any) {
        self.value = value
    }
}
