/// A weak reference, shared by a controller and the callbacks it installs. Written only in `init`.
@usableFromInline
final class WeakReference<Object: AnyObject>: @unchecked Sendable {
    @usableFromInline
    private(set) weak var value: Object?

    init(_ value: Object) {
        self.value = value
    }
}
