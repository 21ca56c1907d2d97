/// Makes a stored `var` of a class observable: every set notifies the property's observers with the
/// old and the new value, and key paths through it (`\.address?.city`) stay wired when it changes.
///
/// The macro keeps the property's type, initial value, access level and `willSet`/`didSet`, and
/// generates private backing storage plus one pointer-sized slot that stays empty until someone
/// observes the property. A set with no observers costs one small out-of-line check over a plain
/// store and allocates nothing (about 1 ns; see BENCHMARKS.md).
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
/// and `weak`/`unowned` references). A `let`, a computed, `static`, `class` or `lazy` property, a
/// property wrapper, a member of a struct, enum or actor, a tuple pattern, several bindings in one
/// declaration, or a property with neither a type annotation nor an initial value is rejected with
/// a compile-time error.
///
/// The macro generates the peers `_name` (storage) and `_$name` (observer slot); a class member
/// with either name conflicts with it.
@attached(accessor, names: named(init), named(get), named(set), named(_modify))
@attached(peer, names: prefixed(_), prefixed(`_$`))
public macro Observed() = #externalMacro(module: "ObservableMacros", type: "ObservedMacro")
