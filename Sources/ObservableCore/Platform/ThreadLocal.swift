#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// The library's per-thread values behind one pthread key. Assumes each slot holds objects of one
/// class (read back with `unsafeDowncast`). Proved by `ThreadLocalTests`, `ConcurrencyTests` (TSan).
final class ThreadLocal {
    enum Slot: Int {
        case trackingFrame
        case manualChanges
        case setExtent
    }

    private var values: (AnyObject?, AnyObject?, AnyObject?) = (nil, nil, nil)

    /// The object in `slot` on this thread, as the class its user stores there.
    static func get<Value: AnyObject>(_ slot: Slot, as _: Value.Type) -> Value? {
        guard let raw = pthread_getspecific(key) else { return nil }
        let storage = Unmanaged<ThreadLocal>.fromOpaque(raw).takeUnretainedValue()
        let value: AnyObject?
        switch slot {
        case .trackingFrame: value = storage.values.0
        case .manualChanges: value = storage.values.1
        case .setExtent: value = storage.values.2
        }
        return value.map { unsafeDowncast($0, to: Value.self) }
    }

    /// Replaces the object in `slot` on this thread and returns the one it replaces.
    @discardableResult
    static func exchange(_ slot: Slot, _ value: AnyObject?) -> AnyObject? {
        let storage: ThreadLocal
        if let raw = pthread_getspecific(key) {
            storage = Unmanaged<ThreadLocal>.fromOpaque(raw).takeUnretainedValue()
        } else {
            guard value != nil else { return nil }
            storage = ThreadLocal()
            pthread_setspecific(key, Unmanaged.passRetained(storage).toOpaque())
        }
        var value = value
        switch slot {
        case .trackingFrame: swap(&storage.values.0, &value)
        case .manualChanges: swap(&storage.values.1, &value)
        case .setExtent: swap(&storage.values.2, &value)
        }
        return value
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { raw in
            Unmanaged<ThreadLocal>.fromOpaque((raw as UnsafeMutableRawPointer?)!).release()
        }
        precondition(status == 0, "ObservableCore: pthread_key_create failed (\(status))")
        return key
    }()
}
