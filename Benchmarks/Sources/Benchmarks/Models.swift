import ObservableCore
import Observation
import OpenCombine

// The same model, written five ways: a value, and a child object with a leaf (for nested paths).

/// Baseline: plain stored properties.
final class PlainModel {
    var value = 0
    var child: PlainChild?
}

final class PlainChild {
    var leaf = 0
}

/// Baseline: what one writes by hand without a library: `didSet` calling an array of closures
/// with the old and the new value.
final class DidSetModel {
    var observers: [(Int, Int) -> Void] = []
    var value = 0 {
        didSet {
            for observer in observers { observer(oldValue, value) }
        }
    }
}

/// ObservableCore.
@KeyValueObservable
final class ObservedModel: KeyValueObservable {
    @Observed var value = 0
    @Observed var child: ObservedChild?
}

/// The models mutated in place (`+= 1`), apart from those the get and set rows use.
final class PlainCounter {
    var value = 0
}

final class ObservedCounter: KeyValueObservable {
    @Observed var value = 0
}

@Observable final class ObservableCounter {
    var value = 0
}

/// An array mutated in place, with room reserved: a copy would show as an allocation.
final class ObservedListModel: KeyValueObservable {
    @Observed var items: [Int] = []

    init() { items.reserveCapacity(4) }
}

final class PlainListModel {
    var items: [Int] = []

    init() { items.reserveCapacity(4) }
}

/// A property whose values are not bitwise-copyable, for the string key path's rows.
@KeyValueObservable
final class NamedModel: KeyValueObservable {
    @Observed var name = ""
}

@KeyValueObservable
final class ObservedChild: KeyValueObservable {
    @Observed var leaf = 0
}

/// ObservableCore reporting to Observation as well (it declares `Observable`), as SwiftUI needs.
final class BridgedModel: KeyValueObservable, Observable {
    @Observed var value = 0
}

/// The same with the class attribute: its accessors give the registrar to the slot.
@KeyValueObservable final class BridgedClassModel: Observable {
    var value = 0
}

/// The same writing its own `access(keyPath:)`: its accessors make Observation's calls beside ours,
/// as every bridged accessor did before the slot was given the registrar.
@KeyValueObservable final class BridgedOwnAccessModel: Observable {
    var value = 0

    nonisolated func access<Member>(keyPath: KeyPath<BridgedOwnAccessModel, Member>) {
        _$observationRegistrar.access(self, keyPath: keyPath)
    }
}

/// Apple's Observation.
@Observable final class ObservableModel {
    var value = 0
    var child: ObservableChild?
}

@Observable final class ObservableChild {
    var leaf = 0
}

/// OpenCombine's @Published.
final class PublishedModel {
    @OpenCombine.Published var value = 0
    @OpenCombine.Published var child: PublishedChild?
}

final class PublishedChild {
    @OpenCombine.Published var leaf = 0
}

/// Ten Int properties, for memory per property.
final class PlainTen {
    var p0 = 0, p1 = 0, p2 = 0, p3 = 0, p4 = 0, p5 = 0, p6 = 0, p7 = 0, p8 = 0, p9 = 0
}

final class ObservedTen: KeyValueObservable {
    @Observed var p0 = 0
    @Observed var p1 = 0
    @Observed var p2 = 0
    @Observed var p3 = 0
    @Observed var p4 = 0
    @Observed var p5 = 0
    @Observed var p6 = 0
    @Observed var p7 = 0
    @Observed var p8 = 0
    @Observed var p9 = 0
}

@Observable final class ObservableTen {
    var p0 = 0
    var p1 = 0
    var p2 = 0
    var p3 = 0
    var p4 = 0
    var p5 = 0
    var p6 = 0
    var p7 = 0
    var p8 = 0
    var p9 = 0
}

final class PublishedTen {
    @OpenCombine.Published var p0 = 0
    @OpenCombine.Published var p1 = 0
    @OpenCombine.Published var p2 = 0
    @OpenCombine.Published var p3 = 0
    @OpenCombine.Published var p4 = 0
    @OpenCombine.Published var p5 = 0
    @OpenCombine.Published var p6 = 0
    @OpenCombine.Published var p7 = 0
    @OpenCombine.Published var p8 = 0
    @OpenCombine.Published var p9 = 0
}

/// A counter that `@Sendable` callbacks (Observation's `onChange`) may bump. Benchmarks are single-
/// threaded unless they say otherwise. Every contender's handler bumps it; without
/// `@exclusivity(unchecked)` each bump would pay a run-time exclusivity check (a closure touching a
/// class property), the same for everyone, which would only blur the comparison.
final class Tally: @unchecked Sendable {
    @exclusivity(unchecked) var count = 0
}

/// Diagnostic baseline: a stored property whose accessors branch to an out-of-line call that never
/// runs, written by hand. It shows the floor for any accessor with a slow path: Swift retains and
/// releases the receiver around such a branch when the receiver is loaded from memory (here, from
/// an array), whether or not the branch is taken.
nonisolated(unsafe) var rarelyTakenBranch = false

@inline(never)
func outOfLine(_ object: AnyObject) { blackHole(object) }

final class BranchModel {
    private var storage = 0
    var value: Int {
        get {
            if rarelyTakenBranch { outOfLine(self) }
            return storage
        }
        set {
            if rarelyTakenBranch { outOfLine(self) }
            storage = newValue
        }
    }
}
