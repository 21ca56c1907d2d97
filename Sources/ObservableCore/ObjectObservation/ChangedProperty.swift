/// Which property of an object changed, and how: what the asynchronous sequence of a whole
/// object's changes yields (``ObservedPropertyListing/propertyChanges(bufferingPolicy:)``).
///
/// A ``PropertyChange`` without its values, which may not be `Sendable` while the sequence's
/// elements cross from the setting thread to the iterating task. Read the values you need from
/// the object, or observe with a handler, which gets them.
public struct ChangedProperty: Sendable, CustomStringConvertible {
    /// The property's name, as declared (`"title"`).
    public let name: String
    /// Where the change happened, as ``PropertyChange/path`` says it when the change was made
    /// (`"chapters[2].title"` in a graph; the name otherwise).
    public let path: String
    /// The kind of change, as ``PropertyChange/kind`` has it.
    public let kind: ObservedChangeKind
    /// The positions an in-place mutation of an array changed, as ``PropertyChange/indexes`` has them.
    public let indexes: RangeSet<Int>?
    private let storedKeyPath: PropertyKeyPath

    init(_ change: PropertyChange) {
        name = change.name
        path = change.path
        kind = change.kind
        indexes = change.indexes
        storedKeyPath = PropertyKeyPath(keyPath: change.keyPath)
    }

    /// The property's key path, rooted at the class that declares it, as ``PropertyChange/keyPath``.
    public var keyPath: AnyKeyPath { storedKeyPath.keyPath }

    /// `setting title`, or `insertion pages [2..<3]`; in a graph, with the path.
    public var description: String {
        "\(kind) \(path)" + (indexes.map { " \($0.ranges.map { "\($0)" }.joined(separator: ", "))" } ?? "")
    }
}

/// A property's key path, which captures nothing and is immutable, so it is sent safely.
private struct PropertyKeyPath: @unchecked Sendable {
    let keyPath: AnyKeyPath
}
