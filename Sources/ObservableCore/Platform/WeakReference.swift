/// A weak reference, shared by a controller and the callbacks it installs. Written only in `init`,
/// so read without run-time exclusivity checks (each read from a callback cost one).
@usableFromInline
final class WeakReference<Object: AnyObject>: @unchecked Sendable {
    @usableFromInline @exclusivity(unchecked)
    private(set) weak var value: Object?

    init(_ value: Object) {
        self.value = value
    }
}
