/// The old value a proven path's last property had before a set, as its setter passed it, and how
/// the path's value is made from it (see `LeafConversion`).
struct LeafOldValue {
    let value: BorrowedValue
    let wrap: LeafWrap
    let wraps: Bool

    /// The path's value made from it.
    func value<Value>(as _: Value.Type) -> Value {
        wraps ? value.converted(by: wrap, to: Value.self) : value.read(as: Value.self)
    }
}
