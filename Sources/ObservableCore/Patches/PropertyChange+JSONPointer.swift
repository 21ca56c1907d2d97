extension PropertyChange {
    /// Where the change happened as a JSON Pointer (`/pages/2/title`), read now, as ``path`` is: a
    /// dictionary's key is a token as it is (a `String`) or as it prints. `nil` when the way passes
    /// through a set, whose elements have no position a pointer could name.
    public var pointer: JSONPointer? {
        JSONPointer(steps: steps)
    }

    /// Whether the change happened below a graph's root, whose own properties are reached by their
    /// names alone.
    @inline(__always)
    var isBelowRoot: Bool {
        guard let location else { return false }
        return !location.isRoot
    }

    /// Every way to the place the change happened, read now (more than one for an object held in
    /// several places); `nil` for a change of the graph's root, reached by the property's name alone.
    @inline(__always)
    var waysBelowRoot: [[PathStep]]? {
        isBelowRoot ? everySteps : nil
    }
}

extension JSONPointer {
    /// The pointer naming the place `steps` lead to; `nil` when they pass through a set, whose
    /// elements have no position a pointer could name.
    init?(steps: [PathStep]) {
        var tokens: [String] = []
        for step in steps {
            switch step {
            case .property(let name): tokens.append(name)
            case .index(let index): tokens.append(String(index))
            case .key(let key): tokens.append(key as? String ?? String(describing: key))
            case .unordered: return nil
            }
        }
        self.init(tokens: tokens)
    }
}
