/// How a path observation delivers a change it evaluated (a re-wire, or a change that could not be
/// delivered with the setter's values), and frees the boxes the values were kept in.
extension PathObservation {
    /// Delivers an evaluated change, and frees its boxes; `mutated` carries a collection's kind and
    /// indexes, found by comparing the path's own values. Through the specialised `leafDelivery` where there is one.
    func deliverEvaluated(
        _ root: Root, _ newBox: ValueBox, oldBox: ValueBox?, leafOld: LeafOldValue?, mutated: Bool,
        _ spares: RewireSpares
    ) {
        defer {
            free(oldBox, spares)
            free(newBox, spares)
        }
        let mutation = mutated ? collectionMutation(oldBox: oldBox, leafOld: leafOld, to: newBox) : nil
        if deliversLeafChanges, oldBox != nil || leafOld != nil || !requestedOptions.needsOldValue {
            let new = newBox.borrowed
            if let oldBox { return deliverEvaluatedChange(root, oldBox.borrowed, new, mutation) }
            // Without an old value, none is asked for: the one passed is left out of the change.
            guard let leafOld else { return deliverEvaluatedChange(root, new, new, nil) }
            return BorrowedValue.lend(leafOld.value(as: Value.self)) {
                deliverEvaluatedChange(root, $0, new, mutation)
            }
        }
        deliverAsChange(root, newBox, oldBox: oldBox, leafOld: leafOld, mutation: mutation)
    }

    /// `deliverEvaluated` for a string key path, `.prior`, `.distinct`, or an unrecorded old value.
    /// Out of line: its `Value?` and `ObservedChange<Value>` locals make unspecialised code look up
    /// their type metadata on entry, which the common path above must not pay for.
    @inline(never)
    func deliverAsChange(
        _ root: Root, _ newBox: ValueBox, oldBox: ValueBox?, leafOld: LeafOldValue?, mutation: CollectionMutation?
    ) {
        var oldValue: Value?
        if let oldBox {
            oldValue = oldBox.borrowed.read(as: Value.self)
        } else if let leafOld {
            oldValue = leafOld.value(as: Value.self)
        }
        if let change = requestedOptions.change(
            old: oldValue, new: newBox.borrowed.read(as: Value.self), isPrior: false, keyPath: keyPath,
            mutation: mutation)
        {
            deliver(root, change)
        }
    }

    /// What an in-place mutation did to the path's value; `nil` when not a collection or not kept.
    func collectionMutation(oldBox: ValueBox?, leafOld: LeafOldValue?, to newBox: ValueBox)
        -> CollectionMutation?
    {
        guard withPlan({ $0.describesCollectionChanges }) else { return nil }
        let newValue = newBox.borrowed.read(as: Value.self)
        if let oldBox { return CollectionMutation.detected(from: oldBox.borrowed.read(as: Value.self), to: newValue) }
        if let leafOld { return CollectionMutation.detected(from: leafOld.value(as: Value.self), to: newValue) }
        return nil
    }

    /// Destroys a box of the path's value, keeping its cell for the next.
    func free(_ box: ValueBox?) {
        guard let box else { return }
        withSpares { free(box, $0) }
    }

    func free(_ box: ValueBox?, _ spares: RewireSpares) {
        box?.destroy(as: Value.self, into: spares.cells)
    }

    func deliver(_ root: Root, _ change: ObservedChange<Value>) {
        guard isActive else { return }
        handler(root, change)
    }
}
