/// The strings string key path observations stand for, by stand-in key path, and the stand-ins by
/// root type and string; kept for ever, as the interned stand-ins are.
enum StringKeyPathNames {
    private static let lock = Lock()
    // Guarded by `lock`. Holds every name strongly, for ever.
    nonisolated(unsafe) private static var names: [ObjectIdentifier: StringKeyPathName.Text] = [:]
    // Guarded by `lock`.
    nonisolated(unsafe) private static var standIns: [StandInKey: StringKeyPath.StandIn] = [:]

    private struct StandInKey: Hashable {
        let root: ObjectIdentifier
        let text: String
    }

    /// The stand-in of `text` from `root`, made by `make` (outside the lock) the first time.
    static func standIn(
        _ text: String, from root: AnyClass, _ make: () -> StringKeyPath.StandIn
    ) -> StringKeyPath.StandIn {
        let key = StandInKey(root: ObjectIdentifier(root), text: text)
        if let known = lock.withLock({ standIns[key] }) { return known }
        // Two threads may both make it: interning and `record` give both the same.
        let made = make()
        lock.withLock { standIns[key] = made }
        return made
    }

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
