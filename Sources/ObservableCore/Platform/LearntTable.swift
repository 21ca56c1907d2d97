/// What is learnt once per key and kept for ever, for every thread: looked up under a lock, learnt
/// outside it (learning may run user code or take other locks), the first value stored kept.
final class LearntTable<Key: Hashable, Value>: @unchecked Sendable {  // `values` guarded by `lock`
    private let lock = Lock()
    @exclusivity(unchecked) private var values: [Key: Value] = [:]

    init() {}

    /// The value of `key`, learnt by `learn` if there is none; when two threads learn it at once,
    /// both get the one stored first.
    func value(for key: Key, learning learn: () -> Value) -> Value {
        if let known = lock.withLock({ values[key] }) { return known }
        let learnt = learn()
        return lock.withLock {
            if let first = values[key] { return first }
            values[key] = learnt
            return learnt
        }
    }

    /// The value of `key`, if one was learnt.
    func known(_ key: Key) -> Value? {
        lock.withLock { values[key] }
    }
}
