/// A weak reference shared by a controller and its callbacks; written only in `init`.
@usableFromInline
final class WeakReference<Object: AnyObject>: @unchecked Sendable {
    @usableFromInline @exclusivity(unchecked)
    private(set) weak var value: Object?

    init(_ value: Object) {
        self.value = value
    }
}
