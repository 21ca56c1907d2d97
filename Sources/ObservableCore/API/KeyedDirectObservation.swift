/// The observation of a string key path that names one `@Observed` property of the root (`"name"`):
/// a direct observation in the property's list, as for `\.name`, fed the setter's own values. They
/// are made `Any` by a function compiled, once per registration, for the property's stored type,
/// which reflection gives (`ReflectedFields`): no key path projection and no reflection per change.
final class KeyedDirectObservation: DirectObservation, @unchecked Sendable {
    private let handler: (AnyObject, KeyedChange) -> Void
    /// The path as written, which each change names.
    private let text: String
    private let anyValue: AnyValueReader
    private let onObservedDeallocated: DeallocationHook?

    init(
        keyPath: InternedKeyPath, text: String, valueType: Any.Type, options: ObservationOptions,
        onObservedDeallocated: DeallocationHook?, handler: @escaping (AnyObject, KeyedChange) -> Void
    ) {
        self.handler = handler
        self.text = text
        self.anyValue = anyValueReader(for: valueType)
        self.onObservedDeallocated = onObservedDeallocated
        super.init(options: options, keyPath: keyPath, notify: Self.notify)
    }

    /// The entry's notification: `entry` is a `KeyedDirectObservation`, the values are of the type
    /// its reader was compiled for (a slot's list receives one property's values only).
    private static func notify(
        _ entry: ListEntry, _ object: AnyObject, _ old: BorrowedValue, _ new: BorrowedValue?,
        _: CollectionMutation?, _: Int
    ) {
        unsafeDowncast(entry, to: KeyedDirectObservation.self).deliver(object, old: old, new: new)
    }

    private func deliver(_ object: AnyObject, old: BorrowedValue, new: BorrowedValue?) {
        guard isActive else { return }
        handler(
            object,
            KeyedChange(
                oldValue: options.contains(.old) ? anyValue(old) : nil,
                newValue: options.contains(.new) ? new.flatMap(anyValue) : nil, isPrior: new == nil, keyPath: text))
    }

    /// Delivers `.initial` with `value`, the property's current value.
    func deliverInitial(_ object: AnyObject, _ value: Any?) {
        guard isActive else { return }
        handler(
            object,
            KeyedChange(oldValue: nil, newValue: options.contains(.new) ? value : nil, isPrior: false, keyPath: text))
    }

    override func listEnded() {
        if claimEnd() { onObservedDeallocated?() }
    }
}

/// Reads a lent value of one type as `Any`, unwrapped from any optionals (`nil` for a `nil`), as
/// string key paths hand values on.
typealias AnyValueReader = (BorrowedValue) -> Any?

/// The reader for values of `type`: a generic function opened for it, so called without a lookup.
private func anyValueReader(for type: Any.Type) -> AnyValueReader {
    func reader<Value>(_: Value.Type) -> AnyValueReader {
        if Value.self is any OptionalProtocol.Type {
            return { unwrappedOptional($0.read(as: Value.self)) }
        }
        return { $0.read(as: Value.self) }
    }
    return _openExistential(type, do: reader)
}
