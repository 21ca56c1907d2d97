/// What an observation delivers, and when: the options of Cocoa's key-value observing, and
/// ``distinct``. `.initial` fires once inside `observe`; each set then sends `.prior` (before the
/// store) and the change, which `.distinct` skips when the values are equal.
public struct ObservationOptions: OptionSet, Sendable, Hashable {
    /// The options as bits; use the named options (``new``, ``old``, ``initial``, ``prior``, ``distinct``)
    /// instead.
    public let rawValue: UInt8

    @inlinable
    /// Options from their bits; use the named options (``new``, ``old``, ``initial``, ``prior``,
    /// ``distinct``) instead.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// Include the value after the change in `ObservedChange.newValue`.
    @inlinable public static var new: ObservationOptions { ObservationOptions(rawValue: 1 << 0) }
    /// Include the value before the change in `ObservedChange.oldValue`.
    @inlinable public static var old: ObservationOptions { ObservationOptions(rawValue: 1 << 1) }
    /// Deliver the current value once, from inside `observe`, before it returns.
    @inlinable public static var initial: ObservationOptions { ObservationOptions(rawValue: 1 << 2) }
    /// Also notify before each store, with `isPrior == true`.
    @inlinable public static var prior: ObservationOptions { ObservationOptions(rawValue: 1 << 3) }
    /// Skip a change whose new value equals its old one: `==` for `Equatable` values, identity for
    /// objects, element by element for optionals and arrays of objects; values that cannot be compared
    /// are always delivered. A `.prior` notification, sent before the new value is known, is not skipped.
    @inlinable public static var distinct: ObservationOptions { ObservationOptions(rawValue: 1 << 4) }
}

extension ObservationOptions: CustomStringConvertible {
    /// The options as they are written: `[.initial, .new]`.
    public var description: String {
        let names: [(ObservationOptions, String)] = [
            (.initial, ".initial"), (.old, ".old"), (.new, ".new"), (.prior, ".prior"), (.distinct, ".distinct"),
        ]
        return "[" + names.filter { contains($0.0) }.map(\.1).joined(separator: ", ") + "]"
    }
}

// What the options mean: the one place that reads their bits. Everything else asks these.
extension ObservationOptions {
    /// `[.old, .new]`: what `observe` uses when given no options, and what a set serves fastest (a
    /// change built once for every such observation; notify functions with the option tests folded).
    @inlinable var isDefault: Bool { self == [.old, .new] }

    /// Whether a change carries the value before it.
    @inlinable var carriesOld: Bool { contains(.old) }

    /// Whether a change carries the value after it: one sent before the store never does. With
    /// `carriesOld`, what every kind of change (`ObservedChange`, `KeyedChange`, `PropertyChange`) is
    /// built with, each in one place.
    @inlinable @inline(__always) func carriesNew(isPrior: Bool) -> Bool { contains(.new) && !isPrior }

    /// Whether a notification is sent before each store too (`isPrior`).
    @inlinable var sendsPrior: Bool { contains(.prior) }

    /// Whether the current value is sent once, from inside `observe`.
    @inlinable var sendsInitial: Bool { contains(.initial) }

    /// Whether changes whose values are equal are skipped.
    @inlinable var skipsEqualValues: Bool { contains(.distinct) }

    /// Whether the value before a change is needed when it is delivered: to carry, or to compare.
    @inlinable var needsOldValue: Bool { carriesOld || skipsEqualValues }

    /// Whether the value before a change is needed before the store: for the change's old value, for
    /// the comparison, or for the notification sent then.
    @inlinable var needsValueBeforeStore: Bool { needsOldValue || sendsPrior }

    /// Whether a notification is sent, of any kind of change: one before the store always (only
    /// entries that asked for `.prior` are called then); one after it unless `.distinct` finds its
    /// values equal.
    @inlinable @inline(__always)
    func sends(isPrior: Bool, old: @autoclosure () -> Any?, new: @autoclosure () -> Any?) -> Bool {
        isPrior || !skipsEqualValues || ValueEquality.areEqual(old(), new()) != true
    }

    /// The change an observation with these options receives, or `nil` when it is not sent.
    @inlinable @inline(__always)
    func change<Value>(
        old: @autoclosure () -> Value?, new: @autoclosure () -> Value?, isPrior: Bool, keyPath: InternedKeyPath,
        mutation: CollectionMutation? = nil
    ) -> ObservedChange<Value>? {
        guard sends(isPrior: isPrior, old: old(), new: new()) else { return nil }
        return contents(old: old(), new: new(), isPrior: isPrior, keyPath: keyPath, mutation: mutation)
    }

    /// The values a change whose values are kept as `Value` carries, `none` for each it does not.
    @inlinable @inline(__always)
    func carried<Value>(
        old: @autoclosure () -> Value, new: @autoclosure () -> Value, isPrior: Bool, none: Value
    ) -> (old: Value, new: Value) {
        (carriesOld ? old() : none, carriesNew(isPrior: isPrior) ? new() : none)
    }

    /// The change, with the values these options carry: the one place an `ObservedChange` is built.
    @inlinable @inline(__always)
    func contents<Value>(
        old: @autoclosure () -> Value?, new: @autoclosure () -> Value?, isPrior: Bool, keyPath: InternedKeyPath,
        mutation: CollectionMutation? = nil
    ) -> ObservedChange<Value> {
        ObservedChange(
            kind: mutation?.kind ?? .setting,
            oldValue: carriesOld ? old() : nil,
            newValue: carriesNew(isPrior: isPrior) ? new() : nil,
            isPrior: isPrior,
            keyPath: keyPath,
            mutation: mutation
        )
    }

    /// The change `.initial` delivers: the current value as the new one, nothing old.
    @inlinable
    func initialChange<Value>(_ value: Value, keyPath: InternedKeyPath) -> ObservedChange<Value> {
        contents(old: nil, new: value, isPrior: false, keyPath: keyPath)
    }
}
