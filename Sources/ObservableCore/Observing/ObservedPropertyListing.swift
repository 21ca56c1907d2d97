/// A class whose `@Observed` properties `@KeyValueObservable` lists, so that the by-name features
/// (string key paths, whole-object and graph observation, the observation listing) find them. The
/// macro adds the conformance and writes the list; do not conform by hand. `SendableMetatype`, so that
/// no conformance is isolated to an actor: the runtime asks for the list on the thread that uses an
/// object, whatever the class's isolation.
public protocol ObservedPropertyListing: KeyValueObservable, SendableMetatype {
    /// The class's `@Observed` properties and its listed superclass's. Written by the macro.
    static var _$observedProperties: ObservedPropertyList { get }
}
