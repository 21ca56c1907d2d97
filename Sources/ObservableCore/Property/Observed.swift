/// Makes a stored `var` of a class observable: every set notifies the property's observers with the
/// old and the new value, and key paths through it (`\.address?.city`) stay wired when it changes.
///
/// It keeps the property's type, initial value, access level and `willSet`/`didSet`, and adds
/// private storage `_name` and a pointer-sized slot `_$name`, empty until the property is observed.
/// <doc:WhatObservedAccepts> lists what it applies to; misuse is a compile-time error.
///
/// - `skipsEqualValues: true`: a set of an equal value (`==`) or the same object (`===`) notifies
///   nobody. By default, as in Cocoa, every set notifies.
/// - `notifiesAutomatically: false`: the owner notifies, with
///   ``KeyValueObservable/willChangeValue(for:)`` and ``KeyValueObservable/didChangeValue(for:)``.
/// - `stringKey:`: whether a string key path reaches the property; by default, when it is
///   `internal` or wider (<doc:StringKeyPaths>).
@attached(accessor, names: named(init), named(get), named(set), named(_modify))
@attached(
    peer, names: prefixed(_), prefixed(`_$`), prefixed(`_$$`), prefixed(`__$`), prefixed(`_$observationRegistrar_`))
public macro Observed(skipsEqualValues: Bool = false, notifiesAutomatically: Bool = true, stringKey: Bool? = nil) =
    #externalMacro(module: "ObservableMacros", type: "ObservedMacro")

/// `@Observed`'s accessors, whose storage `@KeyValueObservable` declares. Written by that macro.
@_documentation(visibility: private)
@attached(accessor, names: named(init), named(get), named(set), named(_modify))
public macro _ObservedMember() = #externalMacro(module: "ObservableMacros", type: "ObservedMacro")

/// The same, calling the class's own `access(keyPath:)` and `withMutation(keyPath:_:)`.
@_documentation(visibility: private)
@attached(accessor, names: named(init), named(get), named(set), named(_modify))
public macro _ObservedMember(callsClassMembers: Bool) =
    #externalMacro(module: "ObservableMacros", type: "ObservedMacro")
