/// One step of the way from an observed graph's root to a changed property: a property, or a
/// position in the value a property holds (`PropertyChange.path` writes them).
enum PathStep {
    case property(String)
    case index(Int)
    /// A dictionary's key.
    case key(any Hashable)
    /// Into a set, whose elements have no position.
    case unordered

    /// `pages[2].title`, `index["a"].name`: properties joined by `.`, positions in brackets.
    static func text(_ steps: [PathStep]) -> String {
        var text = ""
        for step in steps {
            switch step {
            case .property(let name): text += text.isEmpty ? name : "." + name
            case .index(let index): text += "[\(index)]"
            case .key(let key): text += "[\(String(reflecting: key))]"
            case .unordered: break
            }
        }
        return text
    }
}
