/// The strings that string key path observations stand for, by the stand-in key path each carries
/// (see `StringKeyPath`), so that the descriptions of live observations name `"address.city"`.
/// A stand-in is interned, so it lives for ever, and so does its name here.
enum StringKeyPathNames {
    private static let lock = Lock()
    nonisolated(unsafe) private static var names: [ObjectIdentifier: String] = [:]  // guarded by `lock`

    static func record(_ text: String, for keyPath: InternedKeyPath) {
        lock.withLock { names[ObjectIdentifier(keyPath.object)] = text }
    }

    /// The string `keyPath` stands for, if it is a stand-in.
    static func name(of keyPath: AnyKeyPath) -> String? {
        lock.withLock { names[ObjectIdentifier(keyPath)] }
    }
}
