/// A class whose stored properties send will/did changes with old and new values.
@attached(member, names: named(_$registry), arbitrary)
@attached(memberAttribute)
@attached(extension, conformances: MinimalObservable)
public macro MinimalKVO() = #externalMacro(module: "MinimalMacros", type: "MinimalKVOMacro")

/// Added by `@MinimalKVO` to each stored `var`: its accessors (`@MinimalKVO` declares the storage).
@attached(accessor, names: named(init), named(get), named(set))
public macro MinimalTracked() = #externalMacro(module: "MinimalMacros", type: "MinimalTrackedMacro")

public protocol MinimalObservable: AnyObject {}

/// A will-change's record, handed back at the did-change.
public struct MinimalChange<Root: AnyObject, Value> {
    public let root: Root
    public let keyPath: KeyPath<Root, Value>
    public let old: Value
}

/// The runtime's part: what the setters call (a real runtime would deliver to its observers here).
public final class MinimalRegistry: @unchecked Sendable {
    public private(set) var observers = 0
    public init() {}
    public var isObserved: Bool { observers != 0 }

    @inline(never)
    public func willSet<Root: AnyObject, Value>(_ root: Root, _ keyPath: KeyPath<Root, Value>, _ old: Value)
        -> MinimalChange<Root, Value>
    { MinimalChange(root: root, keyPath: keyPath, old: old) }

    @inline(never)
    public func didSet<Root: AnyObject, Value>(_ change: MinimalChange<Root, Value>, _ new: Value) {}
}
