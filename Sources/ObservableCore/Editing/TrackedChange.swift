/// One property a ``ChangeTracker`` holds as changed: which property of which object, its value
/// when tracking started (or when last saved), and its latest value.
public struct TrackedChange: CustomStringConvertible {
    /// The property's name, as declared (`"title"`).
    public var name: String { property._withUnsafeGuaranteedRef { $0.name } }
    /// The property's key path, rooted at the class that declares it.
    public var keyPath: AnyKeyPath {
        property._withUnsafeGuaranteedRef { $0.key?.keyPath } ?? \PropertyChange.self
    }
    /// The object the property belongs to, while it lives.
    public var object: AnyObject? { objectReference.object }
    /// The value when tracking started, or at the last ``ChangeTracker/markSaved()``: what
    /// ``ChangeTracker/revert()`` sets back. Unwrapped from optionals, as a ``PropertyChange``'s values are.
    public let originalValue: Any?
    /// The value after the latest change.
    public internal(set) var value: Any?

    let property: Unmanaged<ObjectProperty>
    private let objectReference: WeakObject

    init(property: Unmanaged<ObjectProperty>, object: WeakObject, originalValue: Any?, value: Any?) {
        self.property = property
        self.objectReference = object
        self.originalValue = originalValue
        self.value = value
    }

    /// `title: "Draft" -> "Minutes"`.
    public var description: String {
        "\(name): \(originalValue.map { String(reflecting: $0) } ?? "nil") -> \(value.map { String(reflecting: $0) } ?? "nil")"
    }
}

/// An object held weakly, shared by the records of its properties.
final class WeakObject: @unchecked Sendable {  // written in `init` only
    private(set) weak var object: AnyObject?

    init(_ object: AnyObject) {
        self.object = object
    }
}
