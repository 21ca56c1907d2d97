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

    /// `value` as a `KeyValueObservable` object; `nil` for any other value. The metatype is asked
    /// first: casting an array to a class-bound existential would bridge it to an `NSArray` first.
    static func object(_ value: Any) -> (any KeyValueObservable)? {
        guard type(of: value) is AnyClass else { return nil }
        return value as? any KeyValueObservable
    }

    private static func collect(_ value: Any, into found: inout [AnyObject]) {
        if let object = object(value) {
            found.append(object)
        } else if let container = value as? any ObjectContainer {
            container.forEachContained { collect($0, into: &found) }
        }
    }

    /// Where `child` is in `value` (a property's current value): `[.index(2)]` in an array,
    /// `[.key("key")]` in a dictionary, `[]` held directly or in an optional, `[.unordered]` in a set;
    /// every place it is held, or only the first when `firstOnly`; none when it is not there.
    static func positions(of child: AnyObject, in value: Any?, firstOnly: Bool) -> [[PathStep]] {
        value.map { ObservableCore.positions(of: child, inElement: $0, firstOnly: firstOnly) } ?? []
    }
}

/// A type whose values hold other values a graph may follow: optionals and the standard collections.
protocol ObjectContainer {
    /// Whether the values held may be objects, or hold them.
    static var mayHoldObjects: Bool { get }
    /// The type of the values held (a dictionary's values).
    static var elementType: Any.Type { get }
    /// Whether the values held have positions a path can name: all but a set's.
    static var hasPositions: Bool { get }
    func forEachContained(_ body: (Any) -> Void)
    /// Where `child` is among the values held, at any depth (`[.index(1), .index(0)]`); `[]` in an
    /// optional, `[.unordered]` in a set; every place, or the first when `firstOnly`.
    func positions(of child: AnyObject, firstOnly: Bool) -> [[PathStep]]
}

extension ObjectContainer {
    static var hasPositions: Bool { true }

    /// Whether `Element`, the type of the values held, may hold objects.
    fileprivate static func mayHold<Element>(_: Element.Type) -> Bool {
        Element.self is any KeyValueObservable.Type || Element.self == Any.self || Element.self == AnyObject.self
            || (Element.self as? any ObjectContainer.Type)?.mayHoldObjects == true
    }
}

/// Where `child` is in `element`, an element of a container: `[[]]` when it is the element.
private func positions(of child: AnyObject, inElement element: Any, firstOnly: Bool) -> [[PathStep]] {
    if let object = ObjectContents.object(element) { return object === child ? [[]] : [] }
    return (element as? any ObjectContainer)?.positions(of: child, firstOnly: firstOnly) ?? []
}

/// The places of `child` in `elements`, each after the step to its element.
private func positions(
    of child: AnyObject, in elements: some Sequence<(step: PathStep, element: Any)>, firstOnly: Bool
) -> [[PathStep]] {
    var found: [[PathStep]] = []
    for (step, element) in elements {
        for inner in positions(of: child, inElement: element, firstOnly: firstOnly) {
            found.append([step] + inner)
            if firstOnly { return found }
        }
    }
    return found
}

extension Optional: ObjectContainer {
    static var mayHoldObjects: Bool { mayHold(Wrapped.self) }
    static var elementType: Any.Type { Wrapped.self }
    func forEachContained(_ body: (Any) -> Void) {
        if let wrapped = self { body(wrapped) }
    }
    func positions(of child: AnyObject, firstOnly: Bool) -> [[PathStep]] {
        self.map { ObservableCore.positions(of: child, inElement: $0, firstOnly: firstOnly) } ?? []
    }
}

extension Array: ObjectContainer {
    static var mayHoldObjects: Bool { mayHold(Element.self) }
    static var elementType: Any.Type { Element.self }
    func forEachContained(_ body: (Any) -> Void) {
        for element in self { body(element) }
    }
    func positions(of child: AnyObject, firstOnly: Bool) -> [[PathStep]] {
        ObservableCore.positions(
            of: child, in: enumerated().lazy.map { (PathStep.index($0), $1 as Any) }, firstOnly: firstOnly)
    }
}

extension ContiguousArray: ObjectContainer {
    static var mayHoldObjects: Bool { mayHold(Element.self) }
    static var elementType: Any.Type { Element.self }
    func forEachContained(_ body: (Any) -> Void) {
        for element in self { body(element) }
    }
    func positions(of child: AnyObject, firstOnly: Bool) -> [[PathStep]] {
        Array(self).positions(of: child, firstOnly: firstOnly)
    }
}

extension Set: ObjectContainer {
    static var mayHoldObjects: Bool { mayHold(Element.self) }
    static var elementType: Any.Type { Element.self }
    static var hasPositions: Bool { false }
    func forEachContained(_ body: (Any) -> Void) {
        for element in self { body(element) }
    }
    func positions(of child: AnyObject, firstOnly: Bool) -> [[PathStep]] {
        contains { !ObservableCore.positions(of: child, inElement: $0, firstOnly: true).isEmpty } ? [[.unordered]] : []
    }
}

extension Dictionary: ObjectContainer {
    static var mayHoldObjects: Bool { mayHold(Value.self) }
    static var elementType: Any.Type { Value.self }
    func forEachContained(_ body: (Any) -> Void) {
        for value in values { body(value) }
    }
    func positions(of child: AnyObject, firstOnly: Bool) -> [[PathStep]] {
        ObservableCore.positions(of: child, in: lazy.map { (PathStep.key($0), $1 as Any) }, firstOnly: firstOnly)
    }
}
