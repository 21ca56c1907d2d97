// Does an inline `Atomic` load in a setter make Swift retain and release the object on every set?
// Shaped like the `@Observed` setter (guard on the slot, then the store), over objects taken from an
// array. Built three ways by `atomic-arc-barrier.sh`. Why the slot reads its list through an
// `@_effects` function: CONTRIBUTING.md, "Unsafe code".
import Synchronization

struct Slot: ~Copyable {
#if PLAIN
    var list: UInt = 0                      // a plain field: what Swift offers no way to read an Atomic as
    @inline(__always) func observed() -> Bool { list != 0 }
#elseif LATE
    let list = Atomic<UInt>(0)
    @_effects(readonly) @_semantics("inline_late") func observed() -> Bool { list.load(ordering: .relaxed) != 0 }
#else
    let list = Atomic<UInt>(0)
    @inline(__always) func observed() -> Bool { list.load(ordering: .relaxed) != 0 }
#endif
}

@inline(never) func slowPath(_ object: AnyObject, _ value: Int) { print(object, value) }

final class Model {
    private var storage = 0
    private let slot = Slot()
    var value: Int {
        get { storage }
        set {
            guard slot.observed() else { storage = newValue; return }
            slowPath(self, storage)
            storage = newValue
            slowPath(self, storage)
        }
    }
}

@inline(never) func loop(_ models: [Model], _ n: Int) {
    for i in 0..<n { models[i & 1023].value = i }
}

@main struct Main {
    static func main() {
        let models = (0..<1024).map { _ in Model() }
        loop(models, CommandLine.arguments.count * 1_000_000)
        print(models[5].value)
    }
}
