/// What a controller observes on one object: a typed key path, or a string key path as written.
/// The two are distinct even where they name the same property, as their changes are of
/// different types. Every property at once (`observeProperties(of:)`) is the typed key of a
/// stand-in (`everyProperty`), which no user key path equals.
@usableFromInline
enum ControllerKey: Equatable {
    case typed(AnyKeyPath)
    case string(String)

    /// The key of an observation of every property of the object.
    static var everyProperty: ControllerKey { .typed(everyPropertyKeyPath) }
    /// The stand-in, which a registration carries as it carries a typed key path.
    static var everyPropertyKeyPath: AnyKeyPath { \EveryPropertyStandIn.self }

    /// A typed key path's identity: the cheap test, tried before equality.
    var identity: ObjectIdentifier? {
        switch self {
        case .typed(let keyPath): ObjectIdentifier(keyPath)
        case .string: nil
        }
    }

    /// `\Person.name` or `"address.city"`, for the description and the debug warnings.
    func description(rootType: AnyClass) -> String {
        switch self {
        case .typed(let keyPath) where keyPath == Self.everyPropertyKeyPath: "every property"
        case .typed(let keyPath): KeyPathDescription.of(keyPath, rootType: rootType)
        case .string(let path): "\"\(path)\""
        }
    }
}

/// What `ControllerKey.everyProperty` is the key path of.
private struct EveryPropertyStandIn {}
