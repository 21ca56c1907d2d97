/// A getter's storage reader made non-generic. Assumes it is given an instance of the getter's class
/// (`StoredPath` checks). Proved by `StoredPathTests` (ASan).
@usableFromInline
struct StoredValueReader {
    /// Initialises the destination with the property's value, or with `optional` that value made optional.
    @usableFromInline
    let initialize: (_ object: AnyObject, _ destination: UnsafeMutableRawPointer, _ optional: Bool) -> Void

    @inlinable
    init<Object: AnyObject, Value>(_ read: @escaping (Object) -> Value) {
        initialize = { object, destination, optional in
            let value = read(unsafeDowncast(object, to: Object.self))
            if optional {
                destination.initializeMemory(as: Value?.self, to: value)
            } else {
                destination.initializeMemory(as: Value.self, to: value)
            }
        }
    }
}
