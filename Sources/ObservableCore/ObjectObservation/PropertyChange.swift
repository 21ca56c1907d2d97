/// One change of one property, as an observation of a whole object delivers it: which property,
/// the kind of change, and the values as `Any` (unwrapped from optionals; `nil` when not asked for).
/// ``newValue(as:)`` reads a value of a known type without a dynamic cast.
public struct PropertyChange: CustomStringConvertible {
    /// The kind of change; for an array mutated in place, with ``indexes``.
    public let kind: ObservedChangeKind
    /// `true` for the notification sent before the store (``PropertyObservationOptions/prior``).
    public let isPrior: Bool
    /// The property; immortal (see `ObjectProperty`), so held without reference counting.
    let property: Unmanaged<ObjectProperty>
    let mutation: CollectionMutation?
    @usableFromInline let old: KeyedValue
    @usableFromInline let new: KeyedValue
    /// Where in an observed graph the change happened; `nil` in the observation of one object.
    var location: ChangeLocation? = nil
    /// The object whose property changed below an observed graph's root (held as the change is: a
    /// weak reference would move the object's reference counts to a side table for its whole life).
    var changedObject: AnyObject? = nil
    // No initializer here, so that the memberwise one exists: it makes a change as one value, which
    // the compiler then destroys without a value witness.

    /// The property's name, as declared (`"title"`).
    public var name: String { property._withUnsafeGuaranteedRef { $0.name } }

    /// Where the change happened: the property's name (`"title"`), or in a graph the way to the object
    /// as the graph is when read (`"pages[2].title"`): read it in the handler.
    public var path: String { location.map { PathStep.text($0.steps(to: name)) } ?? name }

    /// The way from the graph's root to the property, read now.
    var steps: [PathStep] { location?.steps(to: name) ?? [.property(name)] }

    /// Every way from the graph's root to the property, read now: more than one for an object held
    /// in several places.
    var everySteps: [[PathStep]] { location?.everySteps(to: name) ?? [[.property(name)]] }

    /// The object whose property changed, in an observation of a graph; `nil` in the observation of
    /// one object, whose handler is given that object. A change of the root's own property, kept,
    /// does not keep the root: it names it while the root and the observation live.
    public var object: AnyObject? { changedObject ?? location?.root }

    /// The property's key path, rooted at the class that declares it, also for an object of a subclass.
    public var keyPath: AnyKeyPath {
        // Every notification teaches its property's key before it is delivered
        // (`ObserverList.learn`); `\PropertyChange.self` stands for one never taught.
        property._withUnsafeGuaranteedRef { $0.key?.keyPath } ?? \PropertyChange.self
    }

    /// The positions inserted, removed or replaced; `nil` for ``ObservedChangeKind/setting``.
    public var indexes: RangeSet<Int>? { mutation?.indexes }

    /// The value before the change, unwrapped from any optionals.
    public var oldValue: Any? { old.any }

    /// The value after the change, unwrapped from any optionals.
    public var newValue: Any? { new.any }

    /// The value before the change as a `Value`; `nil` when there is none or it is not a `Value`.
    @inlinable @inline(__always)
    public func oldValue<Value>(as _: Value.Type) -> Value? {
        old.value(as: Value.self)
    }

    /// The value after the change as a `Value`; `nil` when there is none or it is not a `Value`.
    @inlinable @inline(__always)
    public func newValue<Value>(as _: Value.Type) -> Value? {
        new.value(as: Value.self)
    }

    /// The change on one line, as `print(change)` shows it: kind, property, old and new values.
    public var description: String {
        var parts = ["\(kind)", name]
        if isPrior { parts.append("prior") }
        if let indexes { parts.append("indexes: \(indexes.ranges.map { "\($0)" }.joined(separator: ", "))") }
        if let oldValue { parts.append("old: \(String(reflecting: oldValue))") }
        if let newValue { parts.append("new: \(String(reflecting: newValue))") }
        return "PropertyChange(\(parts.joined(separator: ", ")))"
    }
}

extension PropertyChange {
    /// The change an observation with `options` receives: the one place a `PropertyChange` is built.
    @inline(__always)
    init(
        options: ObservationOptions, property: Unmanaged<ObjectProperty>, old: @autoclosure () -> KeyedValue,
        new: @autoclosure () -> KeyedValue, isPrior: Bool, mutation: CollectionMutation?,
        location: ChangeLocation? = nil, changedObject: AnyObject? = nil
    ) {
        let values = options.carried(old: old(), new: new(), isPrior: isPrior, none: .none)
        self.init(
            kind: mutation?.kind ?? .setting, isPrior: isPrior, property: property, mutation: mutation,
            old: values.old, new: values.new, location: location, changedObject: changedObject)
    }
}
