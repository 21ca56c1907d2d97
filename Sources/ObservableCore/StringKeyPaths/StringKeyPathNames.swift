/// The strings string key path observations stand for, by stand-in key path; kept for ever.
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

/// A string key path's name, held unretained. Assumes it came from `StringKeyPathNames.record`,
/// which never frees one. Proved by `KeyedValueTests` (ASan).
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
