/// Reads one `@Observed` property's storage as its getter returns it, without the key path's generic
/// projection: the reader the getter hands over (`{ $0._name }`), made non-generic. A proven path is
/// read through these at each re-wire (`StoredPath`), so the runtime needs no storage offset.
///
/// Assumes that `initialize` is given an instance of the class whose getter made the reader (the cast is
/// unchecked in optimised builds): `StoredPath` checks each object's exact class before it reads.
/// Proved by `StoredPathTests` (reads against the key path on random models, subclasses, `weak` and
/// `unowned` storage, generic classes), under AddressSanitizer in `.ci/run`.
@usableFromInline
struct StoredValueReader {
    /// Initialises the destination, uninitialised memory, with the property's value in the instance:
    /// a value of the property's type, or with `optional` that value made optional (a path's value
    /// after an optional chain, as the getter's `LeafWrap` makes it).
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
