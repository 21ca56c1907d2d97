import ObservableCore
import Observation

// Subclasses, which the macros cannot tell are `Observable` or not: a subclass of a class that is not
// must cost what a class without a superclass costs (the registrar its conformances choose does
// nothing), and one of a class declaring `Observable` what `@Observable` on both classes costs.

class PlainBase {}

@KeyValueObservable
final class ObservedSubclass: PlainBase {
    var value = 0
}

@KeyValueObservable
class BridgedBase: Observable {}

@KeyValueObservable
final class BridgedSubclass: BridgedBase {
    var value = 0
}

@Observable class ObservableBase {}

@Observable final class ObservableSubclass: ObservableBase {
    var value = 0
}

extension Name {
    static let observedSubclass = "ObservableCore, a subclass of a class not Observable"
    static let bridgedSubclass = "ObservableCore, a subclass of a class declaring Observable"
    static let observationSubclass = "Observation @Observable, a subclass"
}

func subclassBenchmarks() -> [Benchmark] {
    let root = makeArray { ObservedModel() }
    let observed = makeArray { ObservedSubclass() }
    let bridged = makeArray { BridgedSubclass() }
    let observable = makeArray { ObservableSubclass() }
    return [
        Benchmark(group: "subclass: get", name: Name.observed) { n in
            var sum = 0
            for i in 0..<n { sum &+= root[i & objectMask].value }
            blackHole(sum)
        },
        Benchmark(group: "subclass: get", name: Name.observedSubclass) { n in
            var sum = 0
            for i in 0..<n { sum &+= observed[i & objectMask].value }
            blackHole(sum)
        },
        Benchmark(group: "subclass: get", name: Name.bridgedSubclass) { n in
            var sum = 0
            for i in 0..<n { sum &+= bridged[i & objectMask].value }
            blackHole(sum)
        },
        Benchmark(group: "subclass: get", name: Name.observationSubclass) { n in
            var sum = 0
            for i in 0..<n { sum &+= observable[i & objectMask].value }
            blackHole(sum)
        },
        Benchmark(group: "subclass: set, no observers", name: Name.observed) { n in
            for i in 0..<n { root[i & objectMask].value = i }
            blackHole(root)
        },
        Benchmark(group: "subclass: set, no observers", name: Name.observedSubclass) { n in
            for i in 0..<n { observed[i & objectMask].value = i }
            blackHole(observed)
        },
        Benchmark(group: "subclass: set, no observers", name: Name.bridgedSubclass) { n in
            for i in 0..<n { bridged[i & objectMask].value = i }
            blackHole(bridged)
        },
        Benchmark(group: "subclass: set, no observers", name: Name.observationSubclass) { n in
            for i in 0..<n { observable[i & objectMask].value = i }
            blackHole(observable)
        },
    ]
}
