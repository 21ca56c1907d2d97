/// The key paths of a class's `@Observed` properties, which a patch sets them through: learnt from
/// the getters, which report them to a tracking frame, run by the class's own `encode(to:)`. So a
/// property a patch can set is one the class encodes, as the JSON a patch is made against holds.
enum PropertyKeyPaths {
    /// By class. Key paths are immutable, but not `Sendable`.
    private static let learnt = LearntTable<ObjectIdentifier, [String: AnyKeyPath]>()

    /// The key path of the property `name` of `object`'s class; `nil` when the class's
    /// `encode(to:)` does not read it, or the class is not `Encodable`.
    static func keyPath(of name: String, in object: AnyObject) -> AnyKeyPath? {
        learnt.value(for: ObjectIdentifier(type(of: object))) { learn(object) }[name]
    }

    /// The key path of the property `name` of `type`, if an instance of it was learnt from.
    static func known(_ name: String, in type: AnyClass) -> AnyKeyPath? {
        learnt.known(ObjectIdentifier(type))?[name]
    }

    /// Learns the key paths of `object`'s class, unless they are known.
    static func learnClass(of object: AnyObject) {
        _ = keyPath(of: "", in: object)
    }

    private static func learn(_ object: AnyObject) -> [String: AnyKeyPath] {
        guard let encodable = object as? any Encodable else { return [:] }
        let accesses = Tracking.evaluate { try? encodable.encode(to: DiscardingEncoder()) }.accesses
        var names: [Int: String] = [:]
        for property in ObjectProperties.of(object) { names[property.slotOffset] = property.name }
        var found: [String: AnyKeyPath] = [:]
        for access in accesses where access.object === object {
            guard let keyPath = access.keyPath, let offset = access.slotOffset, let name = names[offset] else {
                continue
            }
            found[name] = keyPath
        }
        return found
    }
}

/// A property's key path used by a patch: sets the property, or edits a place inside its value
/// (read through the getter, written back through the setter).
protocol PatchWritableKeyPath {
    /// Sets the property of `object` to `value`, a value of its type; `false` when either is not.
    func set(_ value: Any, on object: AnyObject) -> Bool
    /// Edits the value inside the property at `tokens`; `false` when nothing was edited.
    func edit(_ edit: ValueEdit, at tokens: ArraySlice<String>, on object: AnyObject) -> Bool
}

extension ReferenceWritableKeyPath: PatchWritableKeyPath {
    func set(_ value: Any, on object: AnyObject) -> Bool {
        guard let root = object as? Root, let value = value as? Value else { return false }
        root[keyPath: self] = value
        return true
    }

    func edit(_ edit: ValueEdit, at tokens: ArraySlice<String>, on object: AnyObject) -> Bool {
        guard let root = object as? Root, let editable = Value.self as? any EditableValue.Type else { return false }
        return self.edit(as: editable, edit, at: tokens, on: root)
    }

    private func edit<Editable: EditableValue>(
        as _: Editable.Type, _ edit: ValueEdit, at tokens: ArraySlice<String>, on root: Root
    ) -> Bool {
        guard let keyPath = self as? ReferenceWritableKeyPath<Root, Editable> else { return false }
        return root[keyPath: keyPath].edit(edit, at: tokens)
    }
}
