/// Where a pointer lands in a document of objects: the object owning a property (the tokens to it),
/// the property, the tokens inside the property's value (`/parts/2` is `parts`, then `2`), and the
/// type of the value there. Found through the types the properties declare, and the objects the
/// document holds where it holds them, so that a place an earlier operation adds is found too.
struct PatchPlace {
    let ownerTokens: [String]
    let property: String
    let inner: [String]
    let type: Any.Type
    /// The owner as the document held it when the patch was checked; `nil` when it did not.
    private let checkedOwner: AnyObject?
    private let ownerClass: AnyClass

    init(_ pointer: JSONPointer, in document: AnyObject) throws(JSONPatchError.Reason) {
        let tokens = pointer.tokens
        var object: AnyObject? = document
        var objectClass: AnyClass = Swift.type(of: document)
        var position = 0
        while true {
            guard position < tokens.count else { throw .wholeDocument }
            let name = tokens[position]
            // What a string key may not reach is missing here too, and told as such.
            guard let property = ListedProperties.of(objectClass)?.property(name, keyed: true), property.isStrong else {
                throw .noProperty(name, type: "\(objectClass)")
            }
            let owner = object
            let ownerClass: AnyClass = objectClass
            let ownerTokens = Array(tokens[..<position])
            position += 1
            var type = property.storage.valueType
            var value = object.flatMap { property.storage.read($0) }
            var inner: [String] = []
            var reachedObject = false
            while position < tokens.count {
                let walked = PatchWalkedType.of(type)
                type = walked.unwrapped
                if walked.isOptional { value = value.flatMap(unwrappedOptional) }
                if let asObject = walked.object, let childClass = type as? AnyClass {
                    object = value.flatMap(asObject)
                    objectClass = object.map { Swift.type(of: $0) } ?? childClass
                    reachedObject = true
                    break
                }
                let token = tokens[position]
                guard let container = walked.container else {
                    throw .notFound(JSONPointer(tokens: Array(tokens[...position])))
                }
                type = container.elementType
                value = value.flatMap { container.element(of: $0, at: token) }
                inner.append(token)
                position += 1
            }
            if reachedObject { continue }
            self.ownerTokens = ownerTokens
            self.property = name
            self.inner = inner
            self.type = type
            checkedOwner = owner
            self.ownerClass = ownerClass
            return
        }
    }

    /// Throws unless the owner's class sets the property through a key path its getter reported.
    func checkSettable() throws(JSONPatchError.Reason) {
        let keyPath =
            checkedOwner.map { PropertyKeyPaths.keyPath(of: property, in: $0) }
            ?? PropertyKeyPaths.known(property, in: ownerClass)
        guard keyPath is any PatchWritableKeyPath else { throw .noProperty(property, type: "\(ownerClass)") }
    }

    /// The owner in the document as it is now.
    func owner(in document: AnyObject) -> AnyObject? {
        var current: Any? = document
        for token in ownerTokens {
            guard let (value, walked) = Self.unwrapped(current) else { return nil }
            if let asObject = walked.object {
                guard let object = asObject(value) else { return nil }
                let property = ListedProperties.of(Swift.type(of: object))?.property(token, keyed: true)
                current = property?.storage.read(object) ?? nil
            } else {
                current = walked.container?.element(of: value, at: token)
            }
        }
        guard let (value, walked) = Self.unwrapped(current) else { return nil }
        return walked.object?(value)
    }

    /// `value` without its optionals, with what the walk needs of its type; `nil` for none.
    private static func unwrapped(_ value: Any?) -> (Any, PatchWalkedType)? {
        guard let value else { return nil }
        let walked = PatchWalkedType.of(Swift.type(of: value))
        guard walked.isOptional else { return (value, walked) }
        guard let unwrapped = unwrappedOptional(value) else { return nil }
        return (unwrapped, PatchWalkedType.of(Swift.type(of: unwrapped)))
    }

    /// Learns the key paths of the classes of the objects `value` holds, at any depth, for the
    /// places they own, which the document does not hold yet.
    static func learnClasses(in value: Any) {
        var pending = ObjectContents.objects(in: value)
        var seen: Set<ObjectIdentifier> = []
        while let object = pending.popLast() {
            guard seen.insert(ObjectIdentifier(object)).inserted else { continue }
            PropertyKeyPaths.learnClass(of: object)
            for property in ObjectProperties.of(object) where property.followsObjects {
                pending += ObjectContents.objects(in: property.currentValue(in: object))
            }
        }
    }
}
