/// The strings string key path observations stand for, by stand-in key path; kept for ever.
enum StringKeyPathNames {
    /// Holds every name strongly, for ever.
    private static let names = LearntTable<ObjectIdentifier, StringKeyPathName.Text>()

    /// Records `text` as the name of `keyPath`, and returns it: the name already recorded, if any.
    @discardableResult
    static func record(_ text: String, for keyPath: InternedKeyPath) -> StringKeyPathName {
        StringKeyPathName(names.value(for: ObjectIdentifier(keyPath.object)) { StringKeyPathName.Text(text) })
    }

    /// The string `keyPath` stands for, if it is a stand-in.
    static func name(of keyPath: AnyKeyPath) -> String? {
        names.known(ObjectIdentifier(keyPath))?.string
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
