/// A class whose `@Observed` properties can be observed with ``observe(_:options:_:)``.
///
/// Conform, and mark the stored properties to observe with `@Observed`:
///
/// ```swift
/// final class Person: KeyValueObservable {
///     @Observed var name = ""
/// }
/// let person = Person()
/// let token = person.observe(\.name, options: [.old, .new]) { person, change in
///     print(change.oldValue!, "->", change.newValue!)
/// }
/// person.name = "Ann"   // prints " -> Ann"
/// ```
public protocol KeyValueObservable: AnyObject {}

/// Marks every stored `var` of the class `@Observed` and conforms it to ``KeyValueObservable``.
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
@attached(memberAttribute)
@attached(member, names: named(CodingKeys), named(init), named(encode), named(`_$observationRegistrar`))
@attached(extension, conformances: KeyValueObservable)
public macro KeyValueObservable() = #externalMacro(module: "ObservableMacros", type: "KeyValueObservableMacro")

/// Leaves one stored property of a `@KeyValueObservable` class unobserved: sets notify nobody, and
/// key paths through it do not re-wire when it changes (it is read, but is not a trigger).
@attached(peer)
public macro Unobserved() = #externalMacro(module: "ObservableMacros", type: "UnobservedMacro")

extension KeyValueObservable {
    /// Observes the value at `keyPath`, calling `handler` synchronously on the setting thread.
    ///
    /// `keyPath` may be one `@Observed` property (`\.name`), a path through several
    /// (`\.address?.city`), or a computed property reading `@Observed` ones. Every `@Observed`
    /// property the path reads is a trigger; when an intermediate object is replaced the observation
    /// moves to the new one and the old one no longer notifies. A component that is not `@Observed`
    /// is read but is not a trigger. A `nil` intermediate gives a `nil` value.
    ///
    /// Every set notifies, even when the new value equals the old one, as in Cocoa.
    /// The observation holds neither the observer nor `self` and ends when the token is cancelled
    /// or released, or when `self` is deallocated.
    ///
    /// ```swift
    /// let token = person.observe(\.address?.city, options: [.initial, .new]) { person, change in
    ///     print("city:", change.newValue as Any)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: What to observe, rooted at this object.
    ///   - options: What each ``ObservedChange`` carries and when it is sent; `[.old, .new]` by default.
    ///   - handler: Called with this object and the change.
    /// - Returns: The token that keeps the observation alive.
    @inlinable
    public func observe<Value>(
        _ keyPath: KeyPath<Self, Value>,
        options: ObservationOptions = [.old, .new],
        _ handler: @escaping (Self, ObservedChange<Value>) -> Void
    ) -> ObservationToken {
        // Inlinable so that the notify functions are specialised here, for the concrete Self and Value.
        ObservationToken(Registration.register(self, keyPath, options: options, handler: handler))
    }
}
