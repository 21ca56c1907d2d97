/// A patch applied to a tree of nodes, as RFC 6902 applies one: what `JSONValue.applying(_:)` and the
/// check of a patch against a document both run.
extension JSONNode {
    /// The node `tokens` reach; `nil` when there is none.
    func node(at tokens: [String]) throws(JSONPatchError.Reason) -> JSONNode? {
        var node = self
        for token in tokens {
            guard let next = try node.child(token) else { return nil }
            node = next
        }
        return node
    }

    /// The member or element `token` names; `nil` when there is none.
    private func child(_ token: String) throws(JSONPatchError.Reason) -> JSONNode? {
        try open()
        if let index = memberIndex(token) { return members?[index].node }
        guard let count = elements?.count, let index = JSONPointer.arrayIndex(token), index < count else { return nil }
        return elements?[index]
    }

    /// Applies one operation in place, as RFC 6902 does; on failure the tree is left half changed.
    func apply(_ operation: JSONPatchOperation) throws(JSONPatchError.Reason) {
        let path = operation.path
        switch operation.operation {
        case .add(let value): try add(JSONNode(value, defers: defers), at: path.tokens[...])
        case .remove: _ = try remove(at: path, replacingWith: nil)
        case .replace(let value): _ = try remove(at: path, replacingWith: JSONNode(value, defers: defers))
        case .move(let from):
            guard from != path else {
                guard try node(at: from.tokens) != nil else { throw .notFound(from) }
                return
            }
            guard !path.tokens.starts(with: from.tokens) else { throw .moveIntoItself }
            try add(try remove(at: from, replacingWith: nil), at: path.tokens[...])
        case .copy(let from):
            guard let value = try node(at: from.tokens)?.value() else { throw .notFound(from) }
            try add(JSONNode(value, defers: defers), at: path.tokens[...])
        case .test(let expected):
            let found = try node(at: path.tokens)?.value()
            guard found == expected else { throw .testFailed(found: found) }
        }
    }

    /// Adds `node` at `tokens`: a member added or replaced, an element inserted (`-`: appended).
    private func add(_ node: JSONNode, at tokens: ArraySlice<String>) throws(JSONPatchError.Reason) {
        guard let last = tokens.last else { return take(node) }
        let parent = try self.parent(of: tokens)
        if parent.members != nil {
            parent.setMember(last, node)
        } else if let count = parent.elements?.count {
            guard let index = last == "-" ? count : JSONPointer.arrayIndex(last), index <= count else {
                throw .invalidIndex(last)
            }
            parent.elements?.insert(node, at: index)
        } else {
            throw .notFound(JSONPointer(tokens: Array(tokens)))
        }
    }

    /// Removes the node `pointer` reaches, or puts `replacement` in its place, and returns it.
    private func remove(
        at pointer: JSONPointer, replacingWith replacement: JSONNode?
    ) throws(JSONPatchError.Reason) -> JSONNode {
        guard let last = pointer.tokens.last else {
            guard let replacement else { throw .wholeDocument }
            let removed = JSONNode(defers: defers)
            removed.take(self)
            take(replacement)
            return removed
        }
        let parent = try self.parent(of: pointer.tokens[...])
        if parent.members != nil {
            guard let index = parent.memberIndex(last),
                let removed = parent.removeMember(at: index, replacingWith: replacement)
            else { throw .notFound(pointer) }
            return removed
        } else if let count = parent.elements?.count {
            guard let index = JSONPointer.arrayIndex(last), index < count, let removed = parent.elements?[index] else {
                throw .invalidIndex(last)
            }
            if let replacement { parent.elements?[index] = replacement } else { parent.elements?.remove(at: index) }
            return removed
        } else {
            throw .notFound(pointer)
        }
    }

    /// The node holding the one `tokens` reach (not empty), opened.
    private func parent(of tokens: ArraySlice<String>) throws(JSONPatchError.Reason) -> JSONNode {
        var node = self
        for (depth, token) in tokens.dropLast().enumerated() {
            guard let next = try node.child(token) else {
                throw .notFound(JSONPointer(tokens: Array(tokens.prefix(depth + 1))))
            }
            node = next
        }
        try node.open()
        return node
    }
}
