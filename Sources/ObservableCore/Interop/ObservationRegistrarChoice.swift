import Observation

// What a class reports to Observation through when the macros cannot see whether it is `Observable`:
// a subclass (which inherits the conformance without declaring it), or a class conforming through a
// protocol of its own (`protocol Document: Observable {}`). The class's registrar is declared with
// its type inferred from `_$chooseObservationRegistrar(for:)`, whose overloads the compiler picks from the
// class's conformances: Observation's registrar for an `Observable` class, and for any other one a
// registrar that takes no space and does nothing, so that such a class pays nothing for the bridge.

/// The registrar an `Observable` class reports to. Used by the `@KeyValueObservable` and `@Observed`
/// macros; do not call directly.
@_documentation(visibility: private)
@inlinable
public func _$chooseObservationRegistrar<Subject: Observable & AnyObject>(for _: Subject.Type) -> _$ObservationRegistrar
{
    _$ObservationRegistrar()
}

/// The registrar any other class "reports" to: nothing. Used by the `@KeyValueObservable` and
/// `@Observed` macros; do not call directly.
@_documentation(visibility: private)
@inlinable
public func _$chooseObservationRegistrar<Subject: AnyObject>(for _: Subject.Type) -> _$NoObservationRegistrar {
    _$NoObservationRegistrar()
}

/// Observation's registrar, with its methods declared here so that the expansion can call them in a
/// file that does not import Observation. Used by the macros; do not use directly.
@_documentation(visibility: private)
public struct _$ObservationRegistrar: Sendable {
    @usableFromInline let registrar = ObservationRegistrar()

    @inlinable
    public init() {}

    @inlinable
    public func access<Subject: Observable, Member>(_ subject: Subject, keyPath: KeyPath<Subject, Member>) {
        registrar.access(subject, keyPath: keyPath)
    }

    @inlinable
    public func willSet<Subject: Observable, Member>(_ subject: Subject, keyPath: KeyPath<Subject, Member>) {
        registrar.willSet(subject, keyPath: keyPath)
    }

    @inlinable
    public func didSet<Subject: Observable, Member>(_ subject: Subject, keyPath: KeyPath<Subject, Member>) {
        registrar.didSet(subject, keyPath: keyPath)
    }

    @inlinable
    public func withMutation<Subject: Observable, Member, Result>(
        of subject: Subject, keyPath: KeyPath<Subject, Member>, _ mutation: () throws -> Result
    ) rethrows -> Result {
        try registrar.withMutation(of: subject, keyPath: keyPath, mutation)
    }
}

/// The registrar of a class that is not `Observable`: empty, and every call does nothing (once
/// inlined, the key path it was given is not even formed). Used by the macros; do not use directly.
@_documentation(visibility: private)
public struct _$NoObservationRegistrar: Sendable {
    @inlinable
    public init() {}

    @inlinable @inline(__always)
    public func access<Subject: AnyObject, Member>(_: Subject, keyPath _: KeyPath<Subject, Member>) {}

    @inlinable @inline(__always)
    public func willSet<Subject: AnyObject, Member>(_: Subject, keyPath _: KeyPath<Subject, Member>) {}

    @inlinable @inline(__always)
    public func didSet<Subject: AnyObject, Member>(_: Subject, keyPath _: KeyPath<Subject, Member>) {}

    @inlinable @inline(__always)
    public func withMutation<Subject: AnyObject, Member, Result>(
        of _: Subject, keyPath _: KeyPath<Subject, Member>, _ mutation: () throws -> Result
    ) rethrows -> Result {
        try mutation()
    }
}
