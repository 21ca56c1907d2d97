extension JSONValue {
    /// This document with `patch` applied, as RFC 6902 applies one: each operation to the result of
    /// the one before, and the whole patch or nothing.
    ///
    /// - Throws: ``JSONPatchError`` naming the first operation that cannot be applied and why.
    public func applying(_ patch: [JSONPatchOperation]) throws(JSONPatchError) -> JSONValue {
        var document = self
        for (index, operation) in patch.enumerated() {
            do throws(JSONPatchError.Reason) {
                try document.apply(operation)
            } catch {
                throw JSONPatchError(index: index, operation: operation, reason: error)
            }
        }
        return document
    }

    /// Applies one operation in place; on failure the value is left half changed: apply to a copy.
    mutating func apply(_ operation: JSONPatchOperation) throws(JSONPatchError.Reason) {
        let path = operation.path
        switch operation.operation {
        case .add(let value): try add(value, at: path.tokens[...])
        case .remove: _ = try remove(at: path, replacingWith: nil)
        case .replace(let value):
            _ = try remove(at: path, replacingWith: value)
        case .move(let from):
            guard from != path else {
                guard value(at: from) != nil else { throw .notFound(from) }
                return
            }
            guard !path.tokens.starts(with: from.tokens) else { throw .moveIntoItself }
            try add(try remove(at: from, replacingWith: nil), at: path.tokens[...])
        case .copy(let from):
            guard let value = value(at: from) else { throw .notFound(from) }
            try add(value, at: path.tokens[...])
        case .test(let expected):
            let found = value(at: path)
            guard found == expected else { throw .testFailed(found: found) }
        }
    }

    /// The value `pointer` reaches; `nil` when there is none.
    public func value(at pointer: JSONPointer) -> JSONValue? {
        var value = self
        for token in pointer.tokens {
            switch value {
            case .object:
                guard let member = value[member: token] else { return nil }
                value = member
            case .array(let values):
                guard let index = JSONPointer.arrayIndex(token), values.indices.contains(index) else { return nil }
                value = values[index]
            default: return nil
            }
        }
        return value
    }

    /// Adds `value` at `tokens`: a member added or replaced, an element inserted (`-`: appended).
    private mutating func add(_ value: JSONValue, at tokens: ArraySlice<String>) throws(JSONPatchError.Reason) {
        guard let last = tokens.last else {
            self = value
            return
        }
        try modifyParent(of: tokens) { (parent: inout JSONValue) throws(JSONPatchError.Reason) in
            // `if case`, not `switch`: see `modifyParent`.
            if case .object(var members) = parent {
                parent = .null
                if let index = members.firstIndex(where: { $0.name == last }) {
                    members[index].value = value
                } else {
                    members.append((last, value))
                }
                parent = .object(members)
            } else if case .array(var values) = parent {
                let index = last == "-" ? values.count : JSONPointer.arrayIndex(last)
                guard let index, index <= values.count else { throw .invalidIndex(last) }
                parent = .null
                values.insert(value, at: index)
                parent = .array(values)
            } else {
                throw .notFound(JSONPointer(tokens: Array(tokens)))
            }
        }
    }

    /// Removes the value `pointer` reaches, or puts `replacement` in its place, and returns it.
    private mutating func remove(
        at pointer: JSONPointer, replacingWith replacement: JSONValue?
    ) throws(JSONPatchError.Reason) -> JSONValue {
        guard let last = pointer.tokens.last else {
            guard let replacement else { throw .wholeDocument }
            defer { self = replacement }
            return self
        }
        var removed: JSONValue?
        try modifyParent(of: pointer.tokens[...]) { (parent: inout JSONValue) throws(JSONPatchError.Reason) in
            // `if case`, not `switch`: see `modifyParent`.
            if case .object(var members) = parent {
                guard let index = members.firstIndex(where: { $0.name == last }) else { throw .notFound(pointer) }
                parent = .null
                removed = members[index].value
                if let replacement { members[index].value = replacement } else { members.remove(at: index) }
                parent = .object(members)
            } else if case .array(var values) = parent {
                guard let index = JSONPointer.arrayIndex(last), values.indices.contains(index) else {
                    throw .invalidIndex(last)
                }
                parent = .null
                removed = values[index]
                if let replacement { values[index] = replacement } else { values.remove(at: index) }
                parent = .array(values)
            } else {
                throw .notFound(pointer)
            }
        }
        guard let removed else { throw .notFound(pointer) }
        return removed
    }

    /// Calls `body` with the value holding the one `tokens` reach (not empty), changed in place;
    /// `depth` tokens are behind.
    private mutating func modifyParent(
        of tokens: ArraySlice<String>, depth: Int = 0, _ body: (inout JSONValue) throws(JSONPatchError.Reason) -> Void
    ) throws(JSONPatchError.Reason) {
        guard depth < tokens.count - 1 else {
            try body(&self)
            return
        }
        let token = tokens[tokens.startIndex + depth]
        var notFound: JSONPatchError.Reason { .notFound(JSONPointer(tokens: Array(tokens.prefix(depth + 1)))) }
        // The container is taken out and `null` left in its place, so that it is changed without a
        // copy: `if case`, since a `switch` over `self` keeps a second reference to it until it ends.
        if case .object(var members) = self {
            guard let index = members.firstIndex(where: { $0.name == token }) else { throw notFound }
            self = .null
            try members[index].value.modifyParent(of: tokens, depth: depth + 1, body)
            self = .object(members)
        } else if case .array(var values) = self {
            guard let index = JSONPointer.arrayIndex(token), values.indices.contains(index) else { throw notFound }
            self = .null
            try values[index].modifyParent(of: tokens, depth: depth + 1, body)
            self = .array(values)
        } else {
            throw notFound
        }
    }
}
