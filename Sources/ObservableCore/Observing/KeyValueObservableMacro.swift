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
/// A property can still carry its own `@Observed(…)` with options, which the class attribute
/// leaves as written. Overrides are not marked (write `@Observed override var` where wanted). A
/// stored `var` declaring several bindings (`var a = 1, b = 2`) is an error: declare them
/// separately, or mark the declaration `@Unobserved`.
///
/// A class declaring `Codable`, `Encodable` or `Decodable` gets the conformance the compiler would
/// synthesise for it without the macro (which it cannot synthesise with it): `CodingKeys` named as
/// the properties are written, `init(from:)` and `encode(to:)`, each only where the class does not
/// declare its own.
///
/// ```swift
/// @KeyValueObservable
/// final class Settings: Codable {
///     var volume = 3     // encoded as {"volume":3}
/// }
/// ```
///
/// A final class declaring `CustomReflectable` gets the `customMirror` showing its stored
/// properties as written, so `dump(person)` and the debugger print `name: "Ann"` rather than the
/// macro's storage (`_name`) and slot (`_$name`). Only a final
/// class: a mirror is inherited, and a subclass's own properties would be missing from it.
///
/// ```swift
/// @KeyValueObservable
/// final class Person: CustomReflectable {
///     var name = "Ann"
/// }
/// dump(Person())   // ▿ MyApp.Person #0
///                  //   - name: "Ann"
/// ```
@attached(memberAttribute)
@attached(
    member, conformances: ObservedPropertyListing, names: named(CodingKeys), named(init), named(encode),
    named(`_$observationRegistrar`), named(access), named(withMutation), named(customMirror),
    named(`_$observedProperties`), arbitrary)
@attached(extension, conformances: KeyValueObservable, ObservedPropertyListing)
public macro KeyValueObservable() = #externalMacro(module: "ObservableMacros", type: "KeyValueObservableMacro")

/// Leaves one stored property of a `@KeyValueObservable` class unobserved: sets notify nobody, and
/// key paths through it do not re-wire when it changes (it is read, but is not a trigger).
@attached(peer)
public macro Unobserved() = #externalMacro(module: "ObservableMacros", type: "UnobservedMacro")
