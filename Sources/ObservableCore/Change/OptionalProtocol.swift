/// Any `Optional`, seen through its wrapped type (string key paths, `PathProof`, and the collection
/// kinds, which an optional collection does not have).
protocol OptionalProtocol {
    static var wrappedType: Any.Type { get }
    var wrappedValue: Any? { get }
    /// Initialises `destination`, uninitialised memory for this type, with `nil`.
    static func initializeNone(at destination: UnsafeMutableRawPointer)
}

extension Optional: OptionalProtocol {
    static var wrappedType: Any.Type { Wrapped.self }
    var wrappedValue: Any? { self.map { $0 as Any } }
    static func initializeNone(at destination: UnsafeMutableRawPointer) {
        destination.initializeMemory(as: Self.self, to: nil)
    }
}

/// `T` for `T?`, `T??`, …; other types unchanged.
func unwrappedOptionalType(_ type: Any.Type) -> Any.Type {
    var type = type
    while let optional = type as? any OptionalProtocol.Type { type = optional.wrappedType }
    return type
}

/// The value inside any number of optionals, `nil` when one of them is `nil`.
func unwrappedOptional(_ value: Any) -> Any? {
    var value = value
    while let optional = value as? OptionalProtocol {
        guard let wrapped = optional.wrappedValue else { return nil }
        value = wrapped
    }
    return value
}
