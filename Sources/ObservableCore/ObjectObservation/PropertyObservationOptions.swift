/// What an observation of a whole object delivers
/// (``ObservedPropertyListing/observeProperties(options:_:)``): the options of ``ObservationOptions``
/// that apply to every property at once.
///
/// There is no `.initial`: a change names its property by the key path its setter forms, and
/// before any set there is none to name it by. Read the current values from the object itself.
public struct PropertyObservationOptions: OptionSet, Sendable, Hashable {
    /// The options as bits; use the named options (``new``, ``old``, ``prior``, ``distinct``) instead.
    public let rawValue: UInt8

    /// Options from their bits; use the named options (``new``, ``old``, ``prior``, ``distinct``)
    /// instead.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// Include the value after the change in ``PropertyChange/newValue``.
    public static var new: PropertyObservationOptions { PropertyObservationOptions(.new) }
    /// Include the value before the change in ``PropertyChange/oldValue``.
    public static var old: PropertyObservationOptions { PropertyObservationOptions(.old) }
    /// Also notify before each store, with ``PropertyChange/isPrior`` `true`.
    public static var prior: PropertyObservationOptions { PropertyObservationOptions(.prior) }
    /// Skip a change whose new value equals its old one, as ``ObservationOptions/distinct`` does.
    public static var distinct: PropertyObservationOptions { PropertyObservationOptions(.distinct) }

    private init(_ option: ObservationOptions) {
        rawValue = option.rawValue
    }

    /// The same options as ``ObservationOptions``, which the observation's entries carry.
    var observationOptions: ObservationOptions { ObservationOptions(rawValue: rawValue).subtracting(.initial) }
}
