extension JSONValue {
    /// This document with `patch` applied, as RFC 6902 applies one: each operation to the result of
    /// the one before, and the whole patch or nothing.
    ///
    /// - Throws: ``JSONPatchError`` naming the first operation that cannot be applied and why.
    public func applying(_ patch: [JSONPatchOperation]) throws(JSONPatchError) -> JSONValue {
        // A tree changed in place, split only along the operations' paths.
        let document = JSONNode(self, defers: false)
        for (index, operation) in patch.enumerated() {
            do throws(JSONPatchError.Reason) {
                try document.apply(operation)
            } catch {
                throw JSONPatchError(index: index, operation: operation, reason: error)
            }
        }
        return document.json
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
}
