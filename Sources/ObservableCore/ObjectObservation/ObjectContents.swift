/// The objects a value holds, for an observation of an object graph: a `KeyValueObservable` object,
/// or the elements of an optional, an array, a set or a dictionary's values holding them, at any
/// depth (`[[Page]]`, `[String: Page?]`).
enum ObjectContents {
    /// Whether values of `type` (a property's storage type; `isExistential` when it is `Any`,
    /// `any P` or `AnyObject`) may hold objects a graph follows.
    static func mayHoldObjects(_ type: Any.Type, isExistential: Bool) -> Bool {
        if isExistential || type is any KeyValueObservable.Type { return true }
        if let container = type as? any ObjectContainer.Type { return container.mayHoldObjects }
        return false
    }

    /// The `KeyValueObservable` objects `value` holds (a change's value, unwrapped), in order, each
    /// as often as it is held.
    static func objects(in value: Any?) -> [AnyObject] {
        guard let value else { return [] }
        var found: [AnyObject] = []
        collect(value, into: &found)
        return found
    }

    private static func collect(_ value: Any, into found: inout [AnyObject]) {
        if let object = value as? any KeyValueObservable {
            found.append(object)
        } else if let container = value as? any ObjectContainer {
            container.forEachContained { collect($0, into: &found) }
        }
    }

    /// Where `child` is in `value` (a property's current value): `[.index(2)]` in an array,
    /// `[.key("key")]` in a dictionary, `[]` held directly or in an optional, `[.unordered]` in a set;
    /// `nil` when it is not there.
    static func pathPosition(of child: AnyObject, in value: Any?) -> [PathStep]? {
        guard let value else { return nil }
        if let object = value as? any KeyValueObservable { return object === child ? [] : nil }
        guard let container = value as? any ObjectContainer else { return nil }
        return container.pathPosition(of: child)
    }
}

/// A type whose values hold other values a graph may follow: optionals and the standard collections.
protocol ObjectContainer {
    /// Whether the values held may be objects, or hold them.
    static var mayHoldObjects: Bool { get }
    func forEachContained(_ body: (Any) -> Void)
    /// Where `child` is among the values held, at any depth (`[.index(1), .index(0)]`); `[]` in an
    /// optional, `[.unordered]` in a set.
    func pathPosition(of child: AnyObject) -> [PathStep]?
}

extension ObjectContainer {
    /// Whether `Element`, the type of the values held, may hold objects.
    fileprivate static func mayHold<Element>(_: Element.Type) -> Bool {
        Element.self is any KeyValueObservable.Type || Element.self == Any.self || Element.self == AnyObject.self
            || (Element.self as? any ObjectContainer.Type)?.mayHoldObjects == true
    }
}

/// Where `child` is in `element`, an element of a container: `[]` when it is the element.
private func pathPosition(of child: AnyObject, inElement element: Any) -> [PathStep]? {
    if let object = element as? any KeyValueObservable { return object === child ? [] : nil }
    return (element as? any ObjectContainer)?.pathPosition(of: child)
}

extension Optional: ObjectContainer {
    static var mayHoldObjects: Bool { mayHold(Wrapped.self) }
    func forEachContained(_ body: (Any) -> Void) {
        if let wrapped = self { body(wrapped) }
    }
    func pathPosition(of child: AnyObject) -> [PathStep]? {
        self.flatMap { ObservableCore.pathPosition(of: child, inElement: $0) }
    }
}

extension Array: ObjectContainer {
    static var mayHoldObjects: Bool { mayHold(Element.self) }
    func forEachContained(_ body: (Any) -> Void) {
        for element in self { body(element) }
    }
    func pathPosition(of child: AnyObject) -> [PathStep]? {
        for (index, element) in enumerated() {
            if let inner = ObservableCore.pathPosition(of: child, inElement: element) { return [.index(index)] + inner }
        }
        return nil
    }
}

extension ContiguousArray: ObjectContainer {
    static var mayHoldObjects: Bool { mayHold(Element.self) }
    func forEachContained(_ body: (Any) -> Void) {
        for element in self { body(element) }
    }
    func pathPosition(of child: AnyObject) -> [PathStep]? {
        Array(self).pathPosition(of: child)
    }
}

extension Set: ObjectContainer {
    static var mayHoldObjects: Bool { mayHold(Element.self) }
    func forEachContained(_ body: (Any) -> Void) {
        for element in self { body(element) }
    }
    func pathPosition(of child: AnyObject) -> [PathStep]? {
        contains { ObservableCore.pathPosition(of: child, inElement: $0) != nil } ? [.unordered] : nil
    }
}

extension Dictionary: ObjectContainer {
    static var mayHoldObjects: Bool { mayHold(Value.self) }
    func forEachContained(_ body: (Any) -> Void) {
        for value in values { body(value) }
    }
    func pathPosition(of child: AnyObject) -> [PathStep]? {
        for (key, value) in self {
            if let inner = ObservableCore.pathPosition(of: child, inElement: value) {
                return [.key(key)] + inner
            }
        }
        return nil
    }
}
