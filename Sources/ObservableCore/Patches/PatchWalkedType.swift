/// What a patch's walk through a document asks of a type, learnt once per type: the type under its
/// optionals, and whether that is an observed class or a container of elements. Each question is a
/// protocol conformance the runtime looks up at every cast, for every token of every operation.
struct PatchWalkedType: @unchecked Sendable {  // immutable; the metatypes are immutable
    /// The type under any optionals.
    let unwrapped: Any.Type
    /// Whether the type itself is an optional.
    let isOptional: Bool
    /// `unwrapped` as a container whose elements a token names.
    let container: (any PatchContainer.Type)?
    /// For a `KeyValueObservable` class, whose properties the walk continues in, a value of it (or of
    /// a subclass) as an object: a cast to the class, cheaper than `as AnyObject`, which asks first
    /// whether the value bridges.
    let object: (@Sendable (Any) -> AnyObject?)?

    /// Grows with the types patches walk through, as a type's metadata does.
    private static let learnt = LearntTable<ObjectIdentifier, PatchWalkedType>()

    /// What the walk needs of `type`.
    static func of(_ type: Any.Type) -> PatchWalkedType {
        learnt.value(for: ObjectIdentifier(type)) { PatchWalkedType(type) }
    }

    private init(_ type: Any.Type) {
        let unwrapped = unwrappedOptionalType(type)
        self.unwrapped = unwrapped
        isOptional = unwrapped != type
        container = unwrapped as? any PatchContainer.Type
        func object<Object: AnyObject>(_: Object.Type) -> @Sendable (Any) -> AnyObject? { { $0 as? Object } }
        if unwrapped is any KeyValueObservable.Type, let objectType = unwrapped as? AnyObject.Type {
            self.object = _openExistential(objectType, do: object)
        } else {
            self.object = nil
        }
    }
}
