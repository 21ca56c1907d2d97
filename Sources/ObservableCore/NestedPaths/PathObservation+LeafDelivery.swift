/// A proven path's deliveries with values it did not evaluate: the setter's (a leaf change) or a
/// re-wire's. Specialised where `observe` is called: the plan keeps them (`LeafDelivery`).
extension PathObservation {
    /// The path's deliveries, compiled where the inlinable caller is; they capture nothing.
    @inlinable
    static var leafDeliveryFunction: LeafDelivery {
        LeafDelivery(
            leaf: { observation, old, new, wrap, wraps, mutation in
                unsafeDowncast(observation, to: PathObservation<Root, Value>.self).deliverLeaf(
                    old, new, wrap, wraps: wraps, mutation)
            },
            evaluated: { observation, root, old, new, mutation in
                let observation = unsafeDowncast(observation, to: PathObservation<Root, Value>.self)
                guard observation.isActive else { return }
                observation.deliverLeaf(unsafeDowncast(root, to: Root.self), old, new, mutation)
            },
            rewired: { observation, root, old, write in
                let observation = unsafeDowncast(observation, to: PathObservation<Root, Value>.self)
                let old = old?.assumingMemoryBound(to: Value.self)
                if observation.isActive {
                    withUnsafeTemporaryAllocation(of: Value.self, capacity: 1) { value in
                        let new = value.baseAddress.unsafelyUnwrapped
                        write(UnsafeMutableRawPointer(new))
                        observation.deliverLeaf(
                            unsafeDowncast(root, to: Root.self), BorrowedValue(address: old ?? new),
                            BorrowedValue(address: new), nil)
                        new.deinitialize(count: 1)
                    }
                }
                // Here, where its type is known: through the box, its type's witness would destroy it.
                old?.deinitialize(count: 1)
            })
    }

    /// Delivers a change of a proven path's last property with the setter's values (`wrap`: made
    /// optional). Specialised where `observe` is called.
    @inlinable
    func deliverLeaf(
        _ old: BorrowedValue, _ new: BorrowedValue, _ wrap: LeafWrap, wraps: Bool, _ mutation: CollectionMutation?
    ) {
        guard isActive, let root else { return }
        if wraps {
            // An optional value has no collection kinds (`LeafPathLink` passes none).
            BorrowedValue.converting(old, new, by: wrap, to: Value.self) { old, new in deliverLeaf(root, old, new, nil)
            }
        } else {
            deliverLeaf(root, old, new, mutation)
        }
    }

    @inlinable
    func deliverLeaf(_ root: Root, _ old: BorrowedValue, _ new: BorrowedValue, _ mutation: CollectionMutation?) {
        // Apart, so that every other change is made (and destroyed) with no mutation to keep.
        if let mutation {
            if let change = requestedOptions.change(
                old: old.read(as: Value.self), new: new.read(as: Value.self), isPrior: false, keyPath: keyPath,
                mutation: mutation)
            {
                handler(root, change)
            }
            return
        }
        if let change = requestedOptions.change(
            old: old.read(as: Value.self), new: new.read(as: Value.self), isPrior: false, keyPath: keyPath)
        {
            handler(root, change)
        }
    }
}
