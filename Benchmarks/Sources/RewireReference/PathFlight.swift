import Synchronization

/// A guarded reference's change in flight, under the observation's own blocking lock: the path's
/// value when a replacement of its intermediate began, from which a leaf change heard meanwhile is
/// delivered. Shared by `GuardedRewireReference` and `APIRewireReference`.
struct PathFlight: ~Copyable {
    struct State {
        var depth = 0
        /// The path's value when the change in flight began, or since last delivered.
        var old: Int? = nil
    }

    private let state = Mutex(State())

    /// The path's intermediate object is about to be replaced; `old` is the path's value now.
    func begin(old: Int?) {
        state.withLock { state in
            if state.depth == 0 { state.old = old }
            state.depth += 1
        }
    }

    /// The replacement is stored: ends the change, returning the value it started from.
    func end() -> Int? {
        state.withLock { state in
            state.depth -= 1
            return state.old
        }
    }

    /// The value a leaf change from `old` to `new` is delivered from: the path's while a change is in flight.
    func from(leafOld old: Int, new: Int) -> Int? {
        state.withLock { state -> Int? in
            guard state.depth > 0 else { return old }
            defer { state.old = new }
            return state.old
        }
    }
}
