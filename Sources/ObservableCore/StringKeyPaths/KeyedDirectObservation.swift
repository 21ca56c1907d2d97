/// The observation of a string key path that names one `@Observed` property of the root (`"name"`):
/// a direct observation in the property's list, as for `\.name`, fed the setter's own values. They
/// are kept as a change keeps them (`KeyedValue`) by a reader made, once per registration, for the
/// property's stored type, which the class's list gives (`ListedProperties`): no key path projection and
/// no lookup per change.
final class KeyedDirectObservation<Root: AnyObject>: DirectObservation, @unchecked Sendable {
    private let handler: (Root, KeyedChange) -> Void
    /// The path as written, which each change names.
    private let name: StringKeyPathName
    private let keyedValue: KeyedValueReader
    private let onObservedDeallocated: DeallocationHook?

    init(
        keyPath: InternedKeyPath, name: StringKeyPathName, valueType: Any.Type, options: ObservationOptions,
        onObservedDeallocated: DeallocationHook?, handler: @escaping (Root, KeyedChange) -> Void
    ) {
        self.handler = handler
        self.name = name
        self.keyedValue = KeyedValueReader(for: valueType)
        self.onObservedDeallocated = onObservedDeallocated
        // With `.distinct`, a notification of its own, so that no other observation pays for it.
        if options.skipsEqualValues {
            super.init(options: options, keyPath: keyPath, notify: Self.notifyIfSent)
        } else {
            super.init(options: options, keyPath: keyPath, notify: Self.notify)
        }
    }

    /// The entry's notification: `entry` is a `KeyedDirectObservation` of a `Root`'s property, the
    /// values are of the type its reader was compiled for (a slot's list receives one property's
    /// values only).
    private static func notify(
        _ entry: ListEntry, _ object: AnyObject, _ old: BorrowedValue, _ new: BorrowedValue?,
        _ mutation: CollectionMutation?, _: Int
    ) {
        unsafeDowncast(entry, to: Self.self).deliver(
            unsafeDowncast(object, to: Root.self), old: old, new: new, mutation: mutation)
    }

    /// `notify` for `.distinct`: the comparison, then the change if sent.
    private static func notifyIfSent(
        _ entry: ListEntry, _ object: AnyObject, _ old: BorrowedValue, _ new: BorrowedValue?,
        _ mutation: CollectionMutation?, _ stamp: Int
    ) {
        let observation = unsafeDowncast(entry, to: Self.self)
        let read = observation.keyedValue
        guard observation.options.sends(isPrior: new == nil, old: read(old).any, new: new.flatMap { read($0).any })
        else { return }
        notify(entry, object, old, new, mutation, stamp)
    }

    private func deliver(_ object: Root, old: BorrowedValue, new: BorrowedValue?, mutation: CollectionMutation?) {
        guard isActive else { return }
        // An in-place mutation of a collection has a change of its own, so that every other change is
        // made (and destroyed) with its `mutation` known to be `nil`.
        if let mutation {
            return handler(
                object,
                KeyedChange(
                    options: options, old: keyedValue(old), new: new.map { keyedValue($0) } ?? .none,
                    isPrior: new == nil, name: name, mutation: mutation))
        }
        if let wordType = keyedValue.wordType {
            // Values of 8 bytes: written straight into the change, not returned and copied into it;
            // the reader takes every other type.
            return handler(
                object,
                KeyedChange(
                    options: options, old: KeyedValue(wordType, bytes: (KeyedValueReader.word(old), 0)),
                    new: KeyedValue(wordType, bytes: (new.map(KeyedValueReader.word) ?? 0, 0)), isPrior: new == nil,
                    name: name))
        }
        handler(
            object,
            KeyedChange(
                options: options, old: keyedValue(old), new: new.map { keyedValue($0) } ?? .none, isPrior: new == nil,
                name: name))
    }

    /// Delivers `.initial` with `value`, the property's current value.
    func deliverInitial(_ object: Root, _ value: Any?) {
        handler(object, KeyedChange(options: options, old: .none, new: KeyedValue(value), isPrior: false, name: name))
    }

    override func listEnded() {
        if claimEnd() { onObservedDeallocated?() }
    }
}
