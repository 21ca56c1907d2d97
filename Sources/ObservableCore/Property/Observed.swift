/// Makes a stored `var` of a class observable: every set notifies the property's observers with the
/// old and the new value, and key paths through it (`\.address?.city`) stay wired when it changes.
///
/// The macro keeps the property's type, initial value, access level and `willSet`/`didSet`, and
/// generates private backing storage plus one pointer-sized slot that stays empty until someone
/// observes the property. A set with no observers costs one small out-of-line check over a plain
/// store and allocates nothing (BENCHMARKS.md has the figures).
///
/// ```swift
/// final class Person: KeyValueObservable {
///     @Observed var name: String
///     @Observed var age = 0
///     @Observed var address: Address?
///     init(name: String) { self.name = name }
/// }
/// ```
///
/// It applies to a single stored `var` of a class (including generic, `open`, `@MainActor` classes
/// and `weak`/`unowned` references) and to an `override var`. A `let`, a computed, `static`, `class` or `lazy` property, a
/// property wrapper, a member of a struct, enum or actor, a tuple pattern, several bindings in one
/// declaration, or a property with neither a type annotation nor an initial value is rejected with
/// a compile-time error.
///
/// Options:
/// - `skipsEqualValues: true`: a set storing a value equal to the current one (`==`, for an
///   `Equatable` type) or the identical object (`===`, for a class reference) notifies nobody. Other
///   types are a compile-time error. The default, as in Cocoa, is that every set notifies.
/// - `notifiesAutomatically: false`: sets never notify; the owner sends the notifications with
///   ``KeyValueObservable/willChangeValue(for:)`` and ``KeyValueObservable/didChangeValue(for:)``
///   (or ``KeyValueObservable/notifyingChange(of:_:)``), like Cocoa's
///   `automaticallyNotifiesObservers(forKey:)` returning `false`.
///
/// - `stringKey:`: whether a string key path (``ObservedPropertyListing/observe(keyPath:options:_:)``)
///   reaches the property. Omitted, its declared access decides: `internal` or wider (a
///   `private(set)` setter included) yes, `private` and `fileprivate` no. `true` opts a `private`
///   or `fileprivate` property in, `false` keeps a wider one out.
///
/// ```swift
/// @Observed(skipsEqualValues: true) var status = Status.idle
/// @Observed(notifiesAutomatically: false) var balance = 0
/// @Observed(stringKey: true) private var draft = ""
/// ```
///
/// On an `override var` (with a type annotation, no initial value and no observers) it makes a
/// superclass property observable on the subclass, even one of a superclass that knows nothing of
/// this library: the accessors wrap `super`'s. Do not add it over a superclass property that is
/// already `@Observed` (a plain `override` keeps notifying), or each set would notify twice.
///
/// An `@Observed` array (any random-access, range-replaceable collection of `Equatable` elements
/// or class references) mutated in place (`append`, `remove(at:)`, `items[i] = x`) notifies once,
/// with ``ObservedChangeKind/insertion``, ``ObservedChangeKind/removal`` or
/// ``ObservedChangeKind/replacement`` and ``ObservedChange/indexes``.
///
/// The macro generates the peers `_name` (storage) and `_$name` (observer slot; `_$$name` for a
/// property no string key reaches), and `__$name` for types declared inside the property's
/// `willSet`/`didSet` (which move there); a class member with one of those names conflicts with it.
@attached(accessor, names: named(init), named(get), named(set), named(_modify))
@attached(
    peer, names: prefixed(_), prefixed(`_$`), prefixed(`_$$`), prefixed(`__$`), prefixed(`_$observationRegistrar_`))
public macro Observed(skipsEqualValues: Bool = false, notifiesAutomatically: Bool = true, stringKey: Bool? = nil) =
    #externalMacro(module: "ObservableMacros", type: "ObservedMacro")

/// What `@KeyValueObservable` marks a property of its class with: `@Observed`'s accessors, whose
/// storage and slot the class attribute declares among its members. Written by that macro; write
/// `@Observed` instead.
@_documentation(visibility: private)
@attached(accessor, names: named(init), named(get), named(set), named(_modify))
public macro _ObservedMember() = #externalMacro(module: "ObservableMacros", type: "ObservedMacro")

/// The same in a class declaring `Observable` that writes its own `access(keyPath:)` or
/// `withMutation(keyPath:_:)` (`callsClassMembers: true`): the accessors call them. Written by
/// `@KeyValueObservable`; write `@Observed` instead.
@_documentation(visibility: private)
@attached(accessor, names: named(init), named(get), named(set), named(_modify))
public macro _ObservedMember(callsClassMembers: Bool) =
    #externalMacro(module: "ObservableMacros", type: "ObservedMacro")
