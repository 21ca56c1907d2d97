/// What a controller observes on one object: a typed key path, or a string key path as written.
/// The two are distinct even where they name the same property, as their changes are of
/// different types.
@usableFromInline
enum ControllerKey: Equatable {
    case typed(AnyKeyPath)
    case string(String)

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
        case .typed(let keyPath): KeyPathDescription.of(keyPath, rootType: rootType)
        case .string(let path): "\"\(path)\""
        }
    }
}
