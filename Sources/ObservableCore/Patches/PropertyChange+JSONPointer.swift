extension PropertyChange {
    /// Where the change happened as a JSON Pointer (`/pages/2/title`), read now, as ``path`` is: a
    /// dictionary's key is a token as it is (a `String`) or as it prints. `nil` when the way passes
    /// through a set, whose elements have no position a pointer could name.
    public var pointer: JSONPointer? {
        Self.pointer(steps)
    }

    /// A pointer to each place the change happened, read now: more than one for an object held in
    /// several places, none when a way passes through a set.
    var pointers: [JSONPointer]? {
        var pointers: [JSONPointer] = []
        for steps in everySteps {
            guard let pointer = Self.pointer(steps) else { return nil }
            pointers.append(pointer)
        }
        return pointers
    }

    private static func pointer(_ steps: [PathStep]) -> JSONPointer? {
        var tokens: [String] = []
        for step in steps {
            switch step {
            case .property(let name): tokens.append(name)
            case .index(let index): tokens.append(String(index))
            case .key(let key): tokens.append(key as? String ?? String(describing: key))
            case .unordered: return nil
            }
        }
        return JSONPointer(tokens: tokens)
    }
}
