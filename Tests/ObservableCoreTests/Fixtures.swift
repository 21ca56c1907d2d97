import ObservableCore

@KeyValueObservable
final class Address: KeyValueObservable {
    @Observed var city: String
    @Observed var street = ""
    init(city: String = "") { self.city = city }
}

@KeyValueObservable
class Person: KeyValueObservable {
    @Observed var name: String
    @Observed var age = 0
    @Observed var address: Address?
    @Observed weak var friend: Person?
    @Observed var tags: [String] = []
    @Unobserved var scratch = 0

    /// Computed from two @Observed properties: observing it depends on both.
    var summary: String { "\(name) (\(age))" }

    init(name: String = "") { self.name = name }
}

@KeyValueObservable
final class Student: Person {
    @Observed var school = ""
}

/// Collects what callbacks saw, in order. Thread-safe, so the concurrency tests can share it.
final class Recorder<Element: Sendable>: Sendable {
    private let storage = Locked<[Element]>([])

    func append(_ element: Element) { storage.withLock { $0.append(element) } }
    var all: [Element] { storage.withLock { $0 } }
    var count: Int { storage.withLock { $0.count } }
}

/// A change reduced to comparable parts: ("prior"/"post"/"initial", old, new).
struct Seen<Value: Equatable & Sendable>: Equatable, Sendable, CustomStringConvertible {
    var phase: String
    var old: Value?
    var new: Value?

    static func from(_ change: ObservedChange<Value>, initial: Bool = false) -> Seen {
        Seen(phase: initial ? "initial" : change.isPrior ? "prior" : "post", old: change.oldValue, new: change.newValue)
    }

    var description: String { "\(phase)(\(String(describing: old)) -> \(String(describing: new)))" }
}

/// An object whose only job is to be deallocated (watched through a `weak` reference).
final class Canary: Sendable {}

/// A seeded pseudo-random generator (SplitMix64), so a random test replays exactly from its seed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Its subclass overrides `level` with a getter of its own: a path's value is not the stored one.
@KeyValueObservable
class OverridableMeter: KeyValueObservable {
    @Observed var level = 0
}

final class DoubledMeter: OverridableMeter {
    override var level: Int {
        get { super.level * 2 }
        set { super.level = newValue / 2 }
    }
}

@KeyValueObservable
final class MeterPanel: KeyValueObservable {
    @Observed var meter: OverridableMeter?
}
