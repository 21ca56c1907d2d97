/// Which API made an observation, for the descriptions of what observes an object.
@usableFromInline
enum ObservationOrigin: UInt8, Sendable, CustomStringConvertible {
    /// `observe`, with a typed or a string key path: the user holds a token.
    case token
    /// An `ObservationController`.
    case controller
    /// `changes(of:)`, for an iteration.
    case sequence
    /// `observe(_:options:isolation:_:)`: delivered on an actor.
    case actor

    @usableFromInline
    var description: String {
        switch self {
        case .token: "token"
        case .controller: "controller"
        case .sequence: "sequence"
        case .actor: "token, delivered on an actor"
        }
    }
}
