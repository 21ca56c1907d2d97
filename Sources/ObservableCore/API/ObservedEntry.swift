/// One observed object in a controller's table: the object (retained or not) and one registration
/// per key path. Guarded by the controller's lock.
final class ObservedEntry {
    let id: Int
    private let retainedObject: AnyObject?
    private weak var weakObject: AnyObject?
    var registrations: [ControllerKey: ControllerRegistration] = [:]

    init(id: Int, object: AnyObject, retained: Bool) {
        self.id = id
        self.retainedObject = retained ? object : nil
        self.weakObject = object
    }

    /// The observed object, while it lives.
    var object: AnyObject? { retainedObject ?? weakObject }

    func cancelAll() {
        for registration in registrations.values { registration.cancel() }
    }
}
