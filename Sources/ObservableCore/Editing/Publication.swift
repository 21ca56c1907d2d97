import Synchronization

/// Publishes an editor's state (a tracker's `hasChanges`, an undo history's `canUndo`) one thread at
/// a time, without holding a lock while the observers of that state run: a thread that asks while
/// another publishes leaves it to that one, which publishes again until no request is left (the
/// combining pattern). A publication asked for from inside one (an observer of the state editing the
/// object again) is handled the same way, by the loop it is inside.
///
/// So the published properties are only ever written by one thread at a time, and the last write
/// is of the latest state, however many threads edit the tracked objects at once. Proved by the
/// concurrent tests of `ChangeTrackerTests` under ThreadSanitizer.
final class Publication: Sendable {
    private let requests = Atomic<Int>(0)
    private let claimed = Atomic<Bool>(false)

    /// Runs `body`, which reads the state and writes the published properties, now or on the thread
    /// publishing already.
    func publish(_ body: () -> Void) {
        requests.add(1, ordering: .sequentiallyConsistent)
        while claimed.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged {
            var seen: Int
            repeat {
                seen = requests.load(ordering: .sequentiallyConsistent)
                body()
            } while requests.load(ordering: .sequentiallyConsistent) != seen
            claimed.store(false, ordering: .sequentiallyConsistent)
            // A request made after the last look, before the release, found the claim taken.
            if requests.load(ordering: .sequentiallyConsistent) == seen { return }
        }
    }
}
