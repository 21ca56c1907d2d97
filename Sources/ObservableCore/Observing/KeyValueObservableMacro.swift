/// Marks every stored `var` of the class `@Observed`, lists them for the features that find
/// properties by name, and conforms the class to ``ObservedPropertyListing`` (a
/// ``KeyValueObservable``).
///
/// ```swift
/// @KeyValueObservable
/// final class Person {
///     var name = ""              // @Observed
///     var age = 0                // @Observed
///     @Unobserved var cache = 0  // left alone
///     let id = 1                 // constants, computed, static, lazy and wrapped properties too
/// }
/// ```
///
/// A property's own `@Observed(…)` is kept as written; overrides are not marked. A class declaring
/// `Codable` gets the conformance the compiler would have synthesised, and a final class declaring
/// `CustomReflectable` a mirror of its properties as written (<doc:CodableAndReflection>).
@attached(memberAttribute)
@attached(
    member, conformances: ObservedPropertyListing, names: named(CodingKeys), named(init), named(encode),
    named(`_$observationRegistrar`), named(access), named(withMutation), named(customMirror),
    named(`_$observedProperties`), arbitrary)
@attached(extension, conformances: KeyValueObservable, ObservedPropertyListing)
public macro KeyValueObservable() = #externalMacro(module: "ObservableMacros", type: "KeyValueObservableMacro")

/// Leaves one stored property of a `@KeyValueObservable` class unobserved: read by key paths, but
/// not a trigger.
@attached(peer)
public macro Unobserved() = #externalMacro(module: "ObservableMacros", type: "UnobservedMacro")
