/// The strings that string key path observations stand for, by the stand-in key path each carries
/// (see `StringKeyPath`), so that the descriptions of live observations name `"address.city"` and
/// each change names its path. A stand-in is interned, so it lives for ever, and so does its name
/// here.
enum StringKeyPathNames {
    private static let lock = Lock()
    // Guarded by `lock`. Holds every name strongly, for ever.
    nonisolated(unsafe) private static var names: [ObjectIdentifier: StringKeyPathName.Text] = [:]

    /// Records `text` as the name of `keyPath`, and returns it: the name already recorded, if any.
    @discardableResult
    static func record(_ text: String, for keyPath: InternedKeyPath) -> StringKeyPathName {
        lock.withLock {
            let id = ObjectIdentifier(keyPath.object)
            if let recorded = names[id] { return StringKeyPathName(recorded) }
            let name = StringKeyPathName.Text(text)
            names[id] = name
            return StringKeyPathName(name)
        }
    }

    /// The string `keyPath` stands for, if it is a stand-in.
    static func name(of keyPath: AnyKeyPath) -> String? {
        lock.withLock { names[ObjectIdentifier(keyPath)]?.string }
    }
}

/// The name of a string key path, as a change carries it: without reference counting, because
/// `StringKeyPathNames` keeps every name for the life of the process.
///
/// Assumes that `text` came from `StringKeyPathNames.record`, which never lets one go. Proved by
/// `KeyedValueTests` (a change kept after its observation, its object and its string are gone
/// still names its path) under AddressSanitizer in `.ci/run`.
struct StringKeyPathName: @unchecked Sendable {  // immutable; the text is immutable and immortal
    unowned(unsafe) let text: Text

    init(_ text: Text) {
        self.text = text
    }

    var string: String { text.string }

    final class Text: Sendable {
        let string: String

        init(_ string: String) {
            self.string = string
        }
    }
}
