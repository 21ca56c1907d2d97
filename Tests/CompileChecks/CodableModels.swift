// expect: builds
// Codable models '@KeyValueObservable' writes the conformance for, which must build without a
// warning: public and open classes, a subclass, a generic class, one half of Codable, explicit
// '@Observed' options, an '@Unobserved' property, the user's CodingKeys, a main-actor class with
// an isolated conformance.
import ObservableCore

@KeyValueObservable
public final class Account: Codable {
    public var name = ""
    @Observed(skipsEqualValues: true) public var balance = 0
    @Unobserved var cache: [String: Int] = [:]
    public init() {}
}

@KeyValueObservable
open class Node: Codable {
    open var label = "node"
    public var children: [Node] = []
}

public final class Leaf: Node {
    @Observed public var weight = 1.0
}

@KeyValueObservable
final class Pair<First: Codable & Sendable, Second: Codable & Sendable>: Decodable {
    var first: First
    var second: Second?
}

@KeyValueObservable
final class Export: Encodable {
    var rows: [[String]] = []
    let created = 0
}

@KeyValueObservable
final class Preferences: KeyValueObservable, Codable {
    var volume = 3
    var theme = "dark"
    var session = 0

    private enum CodingKeys: String, CodingKey {
        case volume = "v"
        case theme
    }
}

@MainActor @KeyValueObservable
final class Screen: @MainActor Codable {
    var title = ""
}

func use() throws {
    _ = Account()
    _ = Leaf()
    _ = Preferences()
    let node = Node()
    node.children.append(Leaf())
    _ = Export()
}
