// expect: builds
// The mirror `@KeyValueObservable` writes, in the shapes a model takes: public, generic, main-actor
// isolated (with an isolated conformance, as for Codable), and bridged to Observation.
import ObservableCore
import Observation

@KeyValueObservable
public final class Catalogue: CustomReflectable, Codable {
    public var title = ""
    weak var parent: Catalogue?
    @Unobserved var scratch = 0
    public init() {}
}

@KeyValueObservable
final class Box<Value: Sendable>: CustomReflectable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

@MainActor @KeyValueObservable
final class Screen: @MainActor CustomReflectable {
    var title = ""
}

@KeyValueObservable
final class Prefs: Observable, CustomReflectable {
    var volume = 3
}

@MainActor
func use() throws {
    _ = Mirror(reflecting: Catalogue()).children.count
    _ = Mirror(reflecting: Box(1)).children.count
    _ = Mirror(reflecting: Screen()).children.count
    _ = Mirror(reflecting: Prefs()).children.count
    _ = try Catalogue().observe(keyPath: "title") { _, _ in }
}
