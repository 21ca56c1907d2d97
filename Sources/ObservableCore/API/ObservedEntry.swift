/// One observed object in a controller's table: the object (retained or not) and one registration
/// per key path. Guarded by the controller's lock.
final class ObservedEntry {
    let id: Int
    private let retainedObject: AnyObject?
    private weak var weakObject: AnyObject?
    // Two tables rather than one keyed by `ControllerKey`, and the strings' made on first use: the
    // typed key paths, the common case, then cost what they did before string paths existed. Only
    // touched under the controller's lock, by these few methods, which call nothing out: Swift's
    // run-time exclusivity checks are off.
    @exclusivity(unchecked) private var typed: [AnyKeyPath: ControllerRegistration] = [:]
    @exclusivity(unchecked) private var strings: [String: ControllerRegistration]?

    init(id: Int, object: AnyObject, retained: Bool) {
        self.id = id
        self.retainedObject = retained ? object : nil
        self.weakObject = object
    }

    /// The observed object, while it lives.
    var object: AnyObject? { retainedObject ?? weakObject }

    subscript(key: ControllerKey) -> ControllerRegistration? {
        switch key {
        case .typed(let keyPath): typed[keyPath]
        case .string(let path): strings?[path]
        }
    }

    /// Records `registration` for `key`, returning the one it replaces.
    func updateValue(_ registration: ControllerRegistration, forKey key: ControllerKey) -> ControllerRegistration? {
        switch key {
        case .typed(let keyPath):
            return typed.updateValue(registration, forKey: keyPath)
        case .string(let path):
            if strings == nil { strings = [:] }
            return strings!.updateValue(registration, forKey: path)
        }
    }

    func removeValue(forKey key: ControllerKey) -> ControllerRegistration? {
        switch key {
        case .typed(let keyPath): typed.removeValue(forKey: keyPath)
        case .string(let path): strings?.removeValue(forKey: path)
        }
    }

    var isEmpty: Bool { typed.isEmpty && strings?.isEmpty ?? true }

    /// Every registration with its key, typed key paths first.
    var registrations: [(key: ControllerKey, registration: ControllerRegistration)] {
        typed.map { (.typed($0.key), $0.value) } + (strings ?? [:]).map { (.string($0.key), $0.value) }
    }

    func cancelAll() {
        for registration in typed.values { registration.cancel() }
        if let strings { for registration in strings.values { registration.cancel() } }
    }
}
