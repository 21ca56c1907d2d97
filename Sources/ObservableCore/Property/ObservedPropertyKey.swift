/// One `@Observed` property as its setter names it: key path and setter. A whole-object observation
/// learns it from the first notification (the list holds no key paths, which isolation forbids).
@usableFromInline
class ObservedPropertyKey: @unchecked Sendable {  // immutable
    /// The property's key path, rooted at the class that declares it.
    final let keyPath: AnyKeyPath

    @usableFromInline
    init(keyPath: AnyKeyPath) {
        self.keyPath = keyPath
    }

    /// Sets the property through its setter, observers told; `false`, nothing set, when it cannot be
    /// set from here or `value` is not of its type.
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
