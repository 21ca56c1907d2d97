/// A controller's observations: for each object, a list of its registrations, one per key; under
/// the controller's lock, calling nothing out. Linear search (a few objects, a few keys each) until
/// `indexedCount` objects, then an index. Removals return a deactivated chain to end after the lock.
struct ControllerTable {
    /// The head of each object's list, in no order (a removal moves the last one into its place).
    private var heads: [ControllerRegistration] = []
    /// The position of each head by its object's identity, while there are many.
    private var index: [ObjectIdentifier: Int]?
    private var nextOrder = 0

    private static let indexedCount = 16

    /// Adds `registration`, returning what it replaces: the same key's, or a dead object's whole list.
    mutating func insert(_ registration: ControllerRegistration, of object: AnyObject, retained: Bool)
        -> ControllerRegistration?
    {
        let position = position(of: registration.objectID)
        // A list of the same object carries on its order; anything else is a newly observed object.
        if let position, heads[position].isBound(to: object) {
            registration.bind(to: object, retained: retained, order: heads[position].objectOrder)
        } else {
            registration.bind(to: object, retained: retained, order: nextOrder)
            nextOrder += 1
        }
        guard let position else {
            append(registration)
            return nil
        }
        let list = heads[position]
        guard list.isBound(to: object) else {
            heads[position] = registration
            return Self.deactivated(list)
        }
        registration.next = list
        heads[position] = registration
        guard let replaced = Self.find(registration.key, in: list) else { return nil }
        return Self.unlink(replaced, after: registration)
    }

    mutating func remove(_ key: ControllerKey, of object: AnyObject) -> ControllerRegistration? {
        guard let position = position(of: object) else { return nil }
        if let identity = key.identity, heads[position].keyIdentity == identity {
            // The head, found without taking a reference: moved out of the table.
            return removeHead(at: position)
        }
        guard let found = Self.find(key, in: heads[position]) else { return nil }
        return found === heads[position] ? removeHead(at: position) : Self.unlink(found, after: heads[position])
    }

    /// Removes the head of the list at `position` and returns it deactivated; its next becomes the head.
    private mutating func removeHead(at position: Int) -> ControllerRegistration {
        heads[position].deactivate()
        guard let next = heads[position].next else { return remove(at: position) }
        var head = next
        swap(&head, &heads[position])
        head.next = nil
        return head
    }

    mutating func removeAll(of object: AnyObject) -> ControllerRegistration? {
        guard let position = position(of: object) else { return nil }
        return Self.deactivated(remove(at: position))
    }

    /// Removes the list `registration` is in, unless already removed: a non-retained object's end.
    mutating func removeList(of registration: ControllerRegistration) -> ControllerRegistration? {
        guard let position = position(of: registration.objectID),
            heads[position].objectOrder == registration.objectOrder
        else {
            return nil
        }
        return Self.deactivated(remove(at: position))
    }

    mutating func removeAll() -> ControllerRegistration? {
        var chain: ControllerRegistration?
        for head in heads {
            var tail = head
            tail.deactivate()
            while let next = tail.next {
                next.deactivate()
                tail = next
            }
            tail.next = chain
            chain = head
        }
        heads = []
        index = nil
        return chain
    }

    func registration(_ key: ControllerKey, of object: AnyObject) -> ControllerRegistration? {
        guard let position = position(of: object) else { return nil }
        return Self.find(key, in: heads[position])
    }

    /// The observed objects that live.
    var objects: [AnyObject] { heads.compactMap(\.object) }

    /// Each live object's registrations, the objects in the order they were first observed.
    var byObject: [(object: AnyObject, registrations: [ControllerRegistration])] {
        heads.sorted { $0.objectOrder < $1.objectOrder }.compactMap { head in
            guard let object = head.object else { return nil }
            return (object, Array(sequence(first: head) { $0.next }))
        }
    }

    /// Where the list of the object with identity `id` is, dead or alive.
    private func position(of id: ObjectIdentifier) -> Int? {
        if let index { return index[id] }
        for position in heads.indices where heads[position].objectID == id { return position }
        return nil
    }

    /// Where the list of `object` is, `nil` for a dead object's at the same address.
    private func position(of object: AnyObject) -> Int? {
        guard let position = position(of: ObjectIdentifier(object)), heads[position].isBound(to: object) else {
            return nil
        }
        return position
    }

    private mutating func append(_ head: ControllerRegistration) {
        heads.append(head)
        if index != nil {
            index![head.objectID] = heads.count - 1
        } else if heads.count > Self.indexedCount {
            index = Dictionary(uniqueKeysWithValues: heads.indices.map { (heads[$0].objectID, $0) })
        }
    }

    @discardableResult
    private mutating func remove(at position: Int) -> ControllerRegistration {
        // Taken from the end (the list there swapped in first): moved out of the array, not copied.
        if position != heads.count - 1 { heads.swapAt(position, heads.count - 1) }
        let removed = heads.removeLast()
        if index != nil {
            index!.removeValue(forKey: removed.objectID)
            if position < heads.count { index![heads[position].objectID] = position }
        }
        return removed
    }

    /// The registration of `key` in the list at `head`: by identity, else by equality.
    private static func find(_ key: ControllerKey, in head: ControllerRegistration) -> ControllerRegistration? {
        var current: ControllerRegistration? = head
        if let identity = key.identity {
            while let registration = current {
                if registration.keyIdentity == identity { return registration }
                current = registration.next
            }
            current = head
        }
        while let registration = current {
            if registration.matches(key) { return registration }
            current = registration.next
        }
        return nil
    }

    /// Unlinks `found`, which follows `head` in its list, and returns it deactivated.
    private static func unlink(_ found: ControllerRegistration, after head: ControllerRegistration)
        -> ControllerRegistration
    {
        var previous = head
        while let next = previous.next, next !== found { previous = next }
        previous.next = found.next
        found.next = nil
        found.deactivate()
        return found
    }

    /// Deactivates the registrations of the chain at `head`, and returns `head`.
    private static func deactivated(_ head: ControllerRegistration) -> ControllerRegistration {
        for registration in sequence(first: head, next: { $0.next }) { registration.deactivate() }
        return head
    }
}
