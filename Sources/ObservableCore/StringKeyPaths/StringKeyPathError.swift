/// Why a string key path cannot be observed: which component, in which type, and why.
public struct StringKeyPathError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Why a component of a string key path could not be observed.
    public enum Reason: Sendable, Hashable {
        /// The path is empty, or one of its components is (`"address..city"`, `"name."`).
        case emptyComponent
        /// No property of that name that a string key reaches; hidden, computed and unobserved properties
        /// give this same error, so a client cannot tell them apart.
        case unknownKey
        /// The component follows a value that is not an object with properties to observe
        /// (`"name.count"`: a `String` has none).
        case notAnObject
        /// The type is not `@KeyValueObservable`, whose list string keys find properties in.
        case notListed
    }

    /// Why the path was rejected.
    public let reason: Reason
    /// The offending component (`""` for an empty one).
    public let key: String
    /// The type the component was looked up in, as `String(describing:)` prints it.
    public let typeName: String
    /// The whole string key path.
    public let path: String

    /// Creates an error; the library throws these, tests may compare against them.
    public init(reason: Reason, key: String, typeName: String, path: String) {
        self.reason = reason
        self.key = key
        self.typeName = typeName
        self.path = path
    }

    /// The error as a sentence naming the key, the type it was looked up on and the whole path.
    public var description: String {
        let detail =
            switch reason {
            case .emptyComponent: "empty key in \(typeName) (components are separated by single dots)"
            case .unknownKey: "\(typeName) has no property '\(key)' that a string key reaches"
            case .notAnObject:
                "'\(key)' cannot be looked up in \(typeName): it is not a class with @Observed properties"
            case .notListed:
                "\(typeName) is not @KeyValueObservable, so string keys find no property '\(key)' of its own"
            }
        return "\"\(path)\": \(detail)"
    }
}
