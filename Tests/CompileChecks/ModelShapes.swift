// expect: builds
// Shapes plain Swift accepts, which must mean the same with @Observed: initializers that assign
// before a `let`, a nonisolated class's `nonisolated var`, generic, @MainActor, open classes and
// subclasses, observers with locals named like the property.
import ObservableCore

@KeyValueObservable final class Tagged {
    var name = ""
    let id: Int
    init(name: String, id: Int) {
        self.name = name
        self.id = id
    }
}

final class Pair: KeyValueObservable {
    @Observed var a = 1
    let b: Int
    init(b: Int) {
        a = 5
        self.b = b
    }
}

final class Plain: KeyValueObservable {
    @Observed nonisolated var shared: Int = 0
}

// Main-actor properties of a class that is not isolated: the implicit initializer is nonisolated, as
// without the macro; a property without an initial value is assigned in a main-actor initializer.
final class Caption: KeyValueObservable {
    @Observed @MainActor var title = ""
}

@KeyValueObservable final class Banner {
    @MainActor var text = ""
    var width = 1
}

final class Label: KeyValueObservable {
    @Observed @MainActor var text: String
    @MainActor init(text: String) { self.text = text }
}

@MainActor final class Screen2: KeyValueObservable {
    @Observed @MainActor var title = ""
    init(title: String) { self.title = title }
}

func makeCaptions() -> (Caption, Banner) { (Caption(), Banner()) }

@MainActor final class Screen: KeyValueObservable {
    @Observed var title = ""
    @Observed private(set) var revision = 0
    init(title: String) { self.title = title }
}

open class Base<T>: KeyValueObservable {
    @Observed open var value: T
    @Observed public var items: [T] = []
    public init(_ value: T) { self.value = value }
}

final class Derived: Base<Int> {
    override var value: Int {
        didSet { if value < 0 { value = 0 } }
    }
}

final class Clamped: KeyValueObservable {
    var log: [Int] = []
    @Observed var level = 0 {
        didSet {
            let values = [level].map { level in level * 2 }
            log += values
            if level > 10 { level = 10 }
        }
    }
}
