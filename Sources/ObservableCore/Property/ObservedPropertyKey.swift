/// One `@Observed` property as its setter names it: its key path, and how to set it through that
/// setter. An observation of a whole object finds the properties in the class's list, which holds no
/// key path to them (one to a property isolated to an actor can be formed only where that isolation
/// is), so it learns each one from the property's first notification: the setter passes
/// `{ \.name }` to `ObservationSlot.willSet`, a change announced by hand passes its key path, and
/// the list hands it to the entries that wait for it (`ObserverList.learn`).
@usableFromInline
class ObservedPropertyKey: @unchecked Sendable {  // immutable
    /// The property's key path, rooted at the class that declares it.
    final let keyPath: AnyKeyPath

    @usableFromInline
    init(keyPath: AnyKeyPath) {
        self.keyPath = keyPath
    }

    /// Sets the property of `object` to `value` through its setter, as a user's set would (its
    /// observers are told): `value` as a change keeps it (`KeyedValue`: unwrapped from optionals,
    /// `nil` for `nil`). `false`, and nothing set, when the property cannot be set from here or
    /// `value` is not of its type. Overridden.
    func set(_ value: Any?, on object: AnyObject) -> Bool { false }

}

/// The key of a property of type `Value` declared by `Object`; made where the setter is compiled.
@usableFromInline
final class TypedObservedPropertyKey<Object: AnyObject, Value>: ObservedPropertyKey, @unchecked Sendable {
    @inlinable
    init(_ keyPath: KeyPath<Object, Value>) {
        super.init(keyPath: keyPath)
    }

    override func set(_ value: Any?, on object: AnyObject) -> Bool {
        // A key path formed inside the class is writable wherever the setter is visible there.
        guard let writable = keyPath as? ReferenceWritableKeyPath<Object, Value>, let object = object as? Object,
            let typed = Self.typed(value)
        else { return false }
        object[keyPath: writable] = typed
        return true
    }

    /// `value`, kept unwrapped, as a `Value`: `nil` made an optional `Value`'s `nil`.
    private static func typed(_ value: Any?) -> Value? {
        if let value { return value as? Value }
        return (Value.self as? any ExpressibleByNilLiteral.Type).flatMap { $0.init(nilLiteral: ()) as? Value }
    }
}
