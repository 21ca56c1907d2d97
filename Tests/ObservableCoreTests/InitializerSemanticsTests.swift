import ObservableCore
import Observation
import Testing

// When an initializer's assignment runs a property's didSet: plain Swift never (its own class's
// initializers store directly), an `@Observed` property and an `@Observable` one once the instance
// is fully initialized (their init accessors store directly only before). The three are written
// alike; what Semantics.md ("In initializers") says is what these logs show.

nonisolated(unsafe) private var log: [String] = []

private final class PlainPartial {
    var n = 0 { didSet { log.append("n \(oldValue)->\(n)") } }
    let k: Int
    init() {
        self.n = 5
        self.k = 1
        self.n = 6
    }
}

private final class ObservedPartial: KeyValueObservable {
    @Observed var n = 0 { didSet { log.append("n \(oldValue)->\(n)") } }
    let k: Int
    init() {
        self.n = 5
        self.k = 1
        self.n = 6
    }
}

@Observable private final class ObservablePartial {
    var n = 0 { didSet { log.append("n \(oldValue)->\(n)") } }
    let k: Int
    init() {
        self.n = 5
        self.k = 1
        self.n = 6
    }
}

private final class PlainUnset {
    var n: Int { didSet { log.append("n \(oldValue)->\(n)") } }
    var m: Int { didSet { log.append("m \(oldValue)->\(m)") } }
    init() {
        self.n = 5
        self.n = 6
        self.m = 1
        self.n = 7
        let later = { self.n = 8 }
        later()
        self.setM(9)
    }
    func setM(_ value: Int) { m = value }
}

private final class ObservedUnset: KeyValueObservable {
    @Observed var n: Int { didSet { log.append("n \(oldValue)->\(n)") } }
    @Observed var m: Int { didSet { log.append("m \(oldValue)->\(m)") } }
    init() {
        self.n = 5
        self.n = 6
        self.m = 1
        self.n = 7
        let later = { self.n = 8 }
        later()
        self.setM(9)
    }
    func setM(_ value: Int) { m = value }
}

@Observable private final class ObservableUnset {
    var n: Int { didSet { log.append("n \(oldValue)->\(n)") } }
    var m: Int { didSet { log.append("m \(oldValue)->\(m)") } }
    init() {
        self.n = 5
        self.n = 6
        self.m = 1
        self.n = 7
        let later = { self.n = 8 }
        later()
        self.setM(9)
    }
    func setM(_ value: Int) { m = value }
}

private class PlainBase {
    var b = 0 { didSet { log.append("b \(oldValue)->\(b)") } }
}

private final class PlainSub: PlainBase {
    var n: Int { didSet { log.append("n \(oldValue)->\(n)") } }
    override init() {
        self.n = 1
        super.init()
        self.n = 3
        self.b = 4
    }
    convenience init(value: Int) {
        self.init()
        self.n = value
    }
}

private class ObservedBase: KeyValueObservable {
    @Observed var b = 0 { didSet { log.append("b \(oldValue)->\(b)") } }
}

private final class ObservedSub: ObservedBase {
    @Observed var n: Int { didSet { log.append("n \(oldValue)->\(n)") } }
    override init() {
        self.n = 1
        super.init()
        self.n = 3
        self.b = 4
    }
    convenience init(value: Int) {
        self.init()
        self.n = value
    }
}

@Observable private class ObservableBase {
    var b = 0 { didSet { log.append("b \(oldValue)->\(b)") } }
}

@Observable private final class ObservableSub: ObservableBase {
    var n: Int { didSet { log.append("n \(oldValue)->\(n)") } }
    override init() {
        self.n = 1
        super.init()
        self.n = 3
        self.b = 4
    }
    convenience init(value: Int) {
        self.init()
        self.n = value
    }
}

/// The fix-it's form: the storage, assigned directly, as a plain class's initializer does.
private final class ObservedStoringDirectly: KeyValueObservable {
    @Observed var n = 0 { didSet { if n > 5 { n = 5 } } }
    init(n: Int) { self._n = n }
}

private final class ObservedClamped: KeyValueObservable {
    @Observed var n = 0 { didSet { if n > 5 { n = 5 } } }
    init(n: Int) { self.n = n }
}

private final class PlainClamped {
    var n = 0 { didSet { if n > 5 { n = 5 } } }
    init(n: Int) { self.n = n }
}

@MainActor
@Suite("Initializers: when an assignment runs didSet, beside plain Swift and @Observable", .serialized)
struct InitializerSemanticsTests {
    private func logged(_ make: () -> AnyObject) -> [String] {
        log = []
        withExtendedLifetime(make()) {}
        defer { log = [] }
        return log
    }

    @Test("before every stored property is initialized, stored directly; after, the setter: as @Observable")
    func partiallyInitialized() {
        #expect(logged { PlainPartial() } == [])
        #expect(logged { ObservedPartial() } == ["n 5->6"])
        #expect(logged { ObservablePartial() } == ["n 5->6"])
        #expect(logged { PlainUnset() } == ["n 7->8", "m 1->9"])
        #expect(logged { ObservedUnset() } == ["n 6->7", "n 7->8", "m 1->9"])
        #expect(logged { ObservableUnset() } == ["n 6->7", "n 7->8", "m 1->9"])
    }

    @Test("a subclass: its own property after super.init, and in a convenience initializer; the superclass's as plain")
    func subclass() {
        #expect(logged { PlainSub() } == ["b 0->4"])
        #expect(logged { ObservedSub() } == ["n 1->3", "b 0->4"])
        #expect(logged { ObservableSub() } == ["n 1->3", "b 0->4"])
        #expect(logged { PlainSub(value: 7) } == ["b 0->4"])
        #expect(logged { ObservedSub(value: 7) } == ["n 1->3", "b 0->4", "n 3->7"])
        #expect(logged { ObservableSub(value: 7) } == ["n 1->3", "b 0->4", "n 3->7"])
    }

    @Test("assigning the storage stores directly, as the plain class; the property runs didSet")
    func storage() {
        #expect(PlainClamped(n: 9).n == 9)
        #expect(ObservedStoringDirectly(n: 9).n == 9)
        #expect(ObservedClamped(n: 9).n == 5)
    }
}
