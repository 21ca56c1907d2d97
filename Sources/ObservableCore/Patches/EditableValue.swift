/// What a patch operation does at a place inside a property's value: an array's element or a
/// dictionary's entry. The values are of the element's type (decoded for it).
enum ValueEdit {
    /// Inserts an element (at `-`: appends), or sets a dictionary's entry.
    case add(Any)
    /// Replaces an element or an existing entry.
    case replace(Any)
    case remove
}

/// A value a patch edits inside: arrays, dictionaries with `String` keys, optionals holding them.
protocol EditableValue {
    /// Applies `edit` at `tokens` (not empty); `false`, nothing changed, when the tokens name no place
    /// or the value is not of the element's type.
    mutating func edit(_ edit: ValueEdit, at tokens: ArraySlice<String>) -> Bool
}

extension EditableValue {
    /// Edits the value `element`, deeper in, and returns it; `nil` when it cannot.
    fileprivate static func edited<Element>(_ element: Element, _ edit: ValueEdit, at tokens: ArraySlice<String>)
        -> Element?
    {
        guard var nested = element as? any EditableValue, nested.edit(edit, at: tokens) else { return nil }
        return nested as? Element
    }
}

extension Array: EditableValue {
    mutating func edit(_ edit: ValueEdit, at tokens: ArraySlice<String>) -> Bool {
        guard let token = tokens.first else { return false }
        let index = JSONPointer.arrayIndex(token)
        guard tokens.count == 1 else {
            guard let index, indices.contains(index),
                let edited = Self.edited(self[index], edit, at: tokens.dropFirst())
            else { return false }
            self[index] = edited
            return true
        }
        switch edit {
        case .add(let value):
            guard let index = token == "-" ? count : index, index <= count, let element = value as? Element else {
                return false
            }
            insert(element, at: index)
        case .replace(let value):
            guard let index, indices.contains(index), let element = value as? Element else { return false }
            self[index] = element
        case .remove:
            guard let index, indices.contains(index) else { return false }
            remove(at: index)
        }
        return true
    }
}

extension Dictionary: EditableValue where Key == String {
    mutating func edit(_ edit: ValueEdit, at tokens: ArraySlice<String>) -> Bool {
        guard let key = tokens.first else { return false }
        guard tokens.count == 1 else {
            guard let value = self[key], let edited = Self.edited(value, edit, at: tokens.dropFirst()) else {
                return false
            }
            self[key] = edited
            return true
        }
        switch edit {
        case .add(let value):
            guard let value = value as? Value else { return false }
            self[key] = value
        case .replace(let value):
            guard self[key] != nil, let value = value as? Value else { return false }
            self[key] = value
        case .remove:
            guard removeValue(forKey: key) != nil else { return false }
        }
        return true
    }
}

extension Optional: EditableValue {
    mutating func edit(_ edit: ValueEdit, at tokens: ArraySlice<String>) -> Bool {
        guard let wrapped = self, let edited = Self.edited(wrapped, edit, at: tokens) else { return false }
        self = edited
        return true
    }
}

/// A value whose places a pointer's tokens name: an array's elements, a `String`-keyed dictionary's
/// entries. How a patch finds the type and the current value at a place.
protocol PatchContainer {
    /// The type of the elements (a dictionary's values).
    static var elementType: Any.Type { get }
    /// The element `token` names; `nil` when there is none.
    func element(at token: String) -> Any?
}

extension PatchContainer {
    /// The element `token` names in `value`, a value of this type: a cast to it, which is cheaper
    /// than one to the protocol.
    static func element(of value: Any, at token: String) -> Any? {
        (value as? Self)?.element(at: token)
    }
}

// `elementType` is `ObjectContainer`'s.
extension Array: PatchContainer {
    func element(at token: String) -> Any? {
        // Neither `flatMap` nor `indices`: unspecialised, each looks up a generic type's metadata at
        // every call. An index is never negative.
        guard let index = JSONPointer.arrayIndex(token), index < count else { return nil }
        return self[index]
    }
}

extension Dictionary: PatchContainer where Key == String {
    func element(at token: String) -> Any? { self[token] }
}
