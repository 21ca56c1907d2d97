import CReference
import Dispatch
import ObservableCore
import Observation
import OpenCombine
import RewireReference

// Names used by the target checks in main.swift.
enum Name {
    static let plain = "plain stored property"
    static let didSet = "hand-written didSet + closure array"
    static let observed = "ObservableCore @Observed"
    static let bridged = "ObservableCore @Observed in a class declaring Observable"
    static let bridgedClass = "ObservableCore @KeyValueObservable class declaring Observable"
    static let bridgedOwnAccess = "ObservableCore @KeyValueObservable class writing its own access(keyPath:)"
    static let observation = "Observation @Observable"
    static let published = "OpenCombine @Published"
    static let branch = "hand-written: stored property + never-taken out-of-line call"
    static let weakRootReference = "reference: the direct change, its handler also loading a weak root"
    static let cReference = "reference: C loop, the same checks, one indirect call per observer"
    static let cReferenceRelaid = "reference: the same C loop, the change laid out again for each call"
    static let rewireReference = "reference: the least re-wire (a link moved between locked lists, both leaves read)"
    static let guardedRewireReference =
        "reference: the least guarded re-wire (the same, the path's old value held in flight under a lock)"
    static let apiRewireReference =
        "reference: the least re-wire of this API (the guarded one, its lists read without a lock, its child "
        + "reached through a witness table, ObservedChange's fields)"
    static let guardedLeafReference =
        "reference: the least guarded re-wire's own leaf change (a locked list, copied)"
    static let apiLeafReference =
        "reference: the least re-wire of this API's own leaf change (a list read without a lock)"
}

/// Objects read and written round-robin, so that loads and stores cannot be hoisted out of loops.
let objectCount = 1024
let objectMask = objectCount - 1

func makeArray<T>(_ make: () -> T) -> [T] { (0..<objectCount).map { _ in make() } }

// MARK: - get and set without observers

func accessBenchmarks() -> [Benchmark] {
    let plain = makeArray { PlainModel() }
    let didSet = makeArray { DidSetModel() }
    let observed = makeArray { ObservedModel() }
    let observable = makeArray { ObservableModel() }
    let published = makeArray { PublishedModel() }
    let branch = makeArray { BranchModel() }
    return [
        Benchmark(group: "get", name: Name.plain) { n in
            var sum = 0
            for i in 0..<n { sum &+= plain[i & objectMask].value }
            blackHole(sum)
        },
        Benchmark(group: "get", name: Name.didSet) { n in
            var sum = 0
            for i in 0..<n { sum &+= didSet[i & objectMask].value }
            blackHole(sum)
        },
        Benchmark(group: "get", name: Name.branch) { n in
            var sum = 0
            for i in 0..<n { sum &+= branch[i & objectMask].value }
            blackHole(sum)
        },
        Benchmark(group: "get", name: Name.observed) { n in
            var sum = 0
            for i in 0..<n { sum &+= observed[i & objectMask].value }
            blackHole(sum)
        },
        Benchmark(group: "get", name: Name.observation) { n in
            var sum = 0
            for i in 0..<n { sum &+= observable[i & objectMask].value }
            blackHole(sum)
        },
        Benchmark(group: "get", name: Name.published) { n in
            var sum = 0
            for i in 0..<n { sum &+= published[i & objectMask].value }
            blackHole(sum)
        },
        Benchmark(group: "set, no observers", name: Name.plain) { n in
            for i in 0..<n { plain[i & objectMask].value = i }
            blackHole(plain)
        },
        Benchmark(group: "set, no observers", name: Name.didSet) { n in
            for i in 0..<n { didSet[i & objectMask].value = i }
            blackHole(didSet)
        },
        Benchmark(group: "set, no observers", name: Name.branch) { n in
            for i in 0..<n { branch[i & objectMask].value = i }
            blackHole(branch)
        },
        Benchmark(group: "set, no observers", name: Name.observed) { n in
            for i in 0..<n { observed[i & objectMask].value = i }
            blackHole(observed)
        },
        Benchmark(group: "set, no observers", name: Name.observation) { n in
            for i in 0..<n { observable[i & objectMask].value = i }
            blackHole(observable)
        },
        Benchmark(group: "set, no observers", name: Name.published) { n in
            for i in 0..<n { published[i & objectMask].value = i }
            blackHole(published)
        },
    ]
}

// MARK: - in-place mutation and values that are not bitwise-copyable, without observers

/// On models of their own: once a property's `_modify` is used anywhere in the module, its get and
/// set cost more (BENCHMARKS.md), and `accessBenchmarks` measures them where it is not.
func mutationBenchmarks() -> [Benchmark] {
    let plain = makeArray { PlainCounter() }
    let observed = makeArray { ObservedCounter() }
    let observable = makeArray { ObservableCounter() }
    let plainLists = makeArray { PlainListModel() }
    let observedLists = makeArray { ObservedListModel() }
    let named = makeArray { NamedModel() }
    let strings = ["a string longer than fifteen bytes", "another string longer than fifteen bytes"]
    return [
        Benchmark(group: "in place (+= 1), no observers", name: Name.plain) { n in
            for i in 0..<n { plain[i & objectMask].value &+= 1 }
            blackHole(plain)
        },
        Benchmark(group: "in place (+= 1), no observers", name: Name.observed) { n in
            for i in 0..<n { observed[i & objectMask].value &+= 1 }
            blackHole(observed)
        },
        Benchmark(group: "in place (+= 1), no observers", name: Name.observation) { n in
            for i in 0..<n { observable[i & objectMask].value &+= 1 }
            blackHole(observable)
        },
        Benchmark(group: "append and removeLast, no observers", name: Name.plain) { n in
            for i in 0..<n {
                plainLists[i & objectMask].items.append(i)
                plainLists[i & objectMask].items.removeLast()
            }
            blackHole(plainLists)
        },
        Benchmark(group: "append and removeLast, no observers", name: Name.observed) { n in
            for i in 0..<n {
                observedLists[i & objectMask].items.append(i)
                observedLists[i & objectMask].items.removeLast()
            }
            blackHole(observedLists)
        },
        Benchmark(group: "set a String, no observers", name: Name.observed) { n in
            for i in 0..<n { named[i & objectMask].name = strings[i & 1] }
            blackHole(named)
        },
    ]
}

// MARK: - reporting to Observation

/// A class declaring `Observable` beside `KeyValueObservable`, against `@Observable` and against an
/// `@Observed` class that does not declare it, in the same run.
func bridgeBenchmarks() -> [Benchmark] {
    let bridged = makeArray { BridgedModel() }
    let bridgedClass = makeArray { BridgedClassModel() }
    let bridgedOwnAccess = makeArray { BridgedOwnAccessModel() }
    let observed = makeArray { ObservedModel() }
    let observable = makeArray { ObservableModel() }
    let sink = Tally()
    let watched = BridgedModel()
    let watchedClass = BridgedClassModel()
    let watchedOwnAccess = BridgedOwnAccessModel()
    let watchedUnbridged = ObservedModel()
    let watchedObservable = ObservableModel()
    let tokens = [
        watched.observe(\.value, options: [.old, .new]) { _, change in
            sink.count &+= change.oldValue! &+ change.newValue!
        },
        watchedClass.observe(\.value, options: [.old, .new]) { _, change in
            sink.count &+= change.oldValue! &+ change.newValue!
        },
        watchedOwnAccess.observe(\.value, options: [.old, .new]) { _, change in
            sink.count &+= change.oldValue! &+ change.newValue!
        },
        watchedUnbridged.observe(\.value, options: [.old, .new]) { _, change in
            sink.count &+= change.oldValue! &+ change.newValue!
        },
    ]
    return [
        Benchmark(group: "bridged: get", name: Name.bridgedClass) { n in
            var sum = 0
            for i in 0..<n { sum &+= bridgedClass[i & objectMask].value }
            blackHole(sum)
        },
        Benchmark(group: "bridged: get", name: Name.bridgedOwnAccess) { n in
            var sum = 0
            for i in 0..<n { sum &+= bridgedOwnAccess[i & objectMask].value }
            blackHole(sum)
        },
        Benchmark(group: "bridged: set, no observers", name: Name.bridgedClass) { n in
            for i in 0..<n { bridgedClass[i & objectMask].value = i }
            blackHole(bridgedClass)
        },
        Benchmark(group: "bridged: set, no observers", name: Name.bridgedOwnAccess) { n in
            for i in 0..<n { bridgedOwnAccess[i & objectMask].value = i }
            blackHole(bridgedOwnAccess)
        },
        Benchmark(group: "bridged: set, 1 observer", name: Name.bridgedClass + " (old+new)") { n in
            for i in 0..<n { watchedClass.value = i }
            blackHole(sink.count)
            withExtendedLifetime(tokens) {}
        },
        Benchmark(group: "bridged: set, 1 observer", name: Name.bridgedOwnAccess + " (old+new)") { n in
            for i in 0..<n { watchedOwnAccess.value = i }
            blackHole(sink.count)
            withExtendedLifetime(tokens) {}
        },
        Benchmark(group: "bridged: in place (+= 1), no observers", name: Name.bridgedClass) { n in
            for i in 0..<n { bridgedClass[i & objectMask].value &+= 1 }
            blackHole(bridgedClass)
        },
        Benchmark(group: "bridged: in place (+= 1), no observers", name: Name.bridgedOwnAccess) { n in
            for i in 0..<n { bridgedOwnAccess[i & objectMask].value &+= 1 }
            blackHole(bridgedOwnAccess)
        },
        Benchmark(group: "bridged: get", name: Name.bridged) { n in
            var sum = 0
            for i in 0..<n { sum &+= bridged[i & objectMask].value }
            blackHole(sum)
        },
        Benchmark(group: "bridged: get", name: Name.observed) { n in
            var sum = 0
            for i in 0..<n { sum &+= observed[i & objectMask].value }
            blackHole(sum)
        },
        Benchmark(group: "bridged: get", name: Name.observation) { n in
            var sum = 0
            for i in 0..<n { sum &+= observable[i & objectMask].value }
            blackHole(sum)
        },
        Benchmark(group: "bridged: set, no observers", name: Name.bridged) { n in
            for i in 0..<n { bridged[i & objectMask].value = i }
            blackHole(bridged)
        },
        Benchmark(group: "bridged: set, no observers", name: Name.observed) { n in
            for i in 0..<n { observed[i & objectMask].value = i }
            blackHole(observed)
        },
        Benchmark(group: "bridged: set, no observers", name: Name.observation) { n in
            for i in 0..<n { observable[i & objectMask].value = i }
            blackHole(observable)
        },
        Benchmark(group: "bridged: set, 1 observer", name: Name.bridged + " (old+new)") { n in
            for i in 0..<n { watched.value = i }
            blackHole(sink.count)
            withExtendedLifetime(tokens) {}
        },
        Benchmark(group: "bridged: set, 1 observer", name: Name.observed + " (old+new)") { n in
            for i in 0..<n { watchedUnbridged.value = i }
            blackHole(sink.count)
            withExtendedLifetime(tokens) {}
        },
        Benchmark(group: "bridged: set, 1 observer", name: Name.observation + " (re-armed, no values)") { n in
            for i in 0..<n {
                withObservationTracking {
                    _ = watchedObservable.value
                } onChange: {
                    sink.count &+= 1
                }
                watchedObservable.value = i
            }
            blackHole(sink.count)
        },
    ]
}

// MARK: - set with observers

/// `observers` observers on one object; each set delivers old and new values where the contender can.
func setWithObserversBenchmarks(_ observers: Int) -> [Benchmark] {
    let group = "set, \(observers) observer\(observers == 1 ? "" : "s")"
    let sink = Tally()

    let didSet = DidSetModel()
    for _ in 0..<observers { didSet.observers.append { old, new in sink.count &+= old &+ new } }

    let observed = ObservedModel()
    let tokens = (0..<observers).map { _ in
        observed.observe(\.value, options: [.old, .new]) { _, change in
            sink.count &+= change.oldValue! &+ change.newValue!
        }
    }

    let observable = ObservableModel()
    let published = PublishedModel()
    let cancellables = (0..<observers).map { _ in published.$value.sink { sink.count &+= $0 } }

    var benchmarks = [
        Benchmark(group: group, name: Name.didSet) { n in
            for i in 0..<n { didSet.value = i }
            blackHole(sink.count)
        },
        Benchmark(group: group, name: Name.observed + " (old+new)") { n in
            for i in 0..<n { observed.value = i }
            blackHole(sink.count)
            withExtendedLifetime(tokens) {}
        },
        Benchmark(group: group, name: Name.published + " (new only)") { n in
            for i in 0..<n { published.value = i }
            blackHole(sink.count)
            withExtendedLifetime(cancellables) {}
        },
    ]
    // Not contenders: what the per-observer work costs written in C (see CReference.h).
    let reference = creference_model(observers)
    benchmarks.append(
        Benchmark(group: group, name: Name.cReference) { n in
            for i in 0..<n { creference_set(reference, Int64(i)) }
            blackHole(creference_total(reference))
        })
    benchmarks.append(
        Benchmark(group: group, name: Name.cReferenceRelaid) { n in
            for i in 0..<n { creference_set_relaid(reference, Int64(i)) }
            blackHole(creference_total(reference))
        })
    if observers == 1 {
        // A controller's observation: delivered as a token's is, behind the controller's gate.
        let owner = Tally()
        let controlled = ObservedModel()
        let controller = ObservationController(observer: owner)
        controller.observe(controlled, \.value, options: [.old, .new]) { _, _, change in
            sink.count &+= change.oldValue! &+ change.newValue!
        }
        benchmarks.append(
            Benchmark(group: group, name: Name.observed + " controller (old+new)") { n in
                for i in 0..<n { controlled.value = i }
                blackHole(sink.count)
                withExtendedLifetime((owner, controller)) {}
            })
    }
    // Observation has no persistent observer: each change ends every tracking, which must be armed
    // again (that is what an observer of every change has to do). No old or new value.
    benchmarks.append(
        Benchmark(
            group: group, name: Name.observation + " (re-armed, no values)",
            run: { n in
                for i in 0..<n {
                    for _ in 0..<observers {
                        withObservationTracking {
                            _ = observable.value
                        } onChange: {
                            sink.count &+= 1
                        }
                    }
                    observable.value = i
                }
                blackHole(sink.count)
            }, maxIterations: observers >= 1000 ? 2_000 : .max))
    return benchmarks
}

// MARK: - nested paths

/// Observation's way to see one change of `\.child?.leaf`, `n` times: track the path, then change the
/// leaf, which ends the tracking. Both its nested leaf change and its nested observe + cancel.
func trackPathThenChangeLeaf(_ model: ObservableModel, _ child: ObservableChild, _ sink: Tally, _ n: Int) {
    for i in 0..<n {
        withObservationTracking {
            _ = model.child?.leaf
        } onChange: {
            sink.count &+= 1
        }
        child.leaf = i
    }
    blackHole(sink.count)
}

func nestedPathBenchmarks() -> [Benchmark] {
    let sink = Tally()

    let observed = ObservedModel()
    let observedChildren = [ObservedChild(), ObservedChild()]
    observed.child = observedChildren[0]
    let pathToken = observed.observe(\.child?.leaf, options: [.old, .new]) { _, change in
        sink.count &+= (change.oldValue! ?? 0) &+ (change.newValue! ?? 0)
    }
    // The same change observed directly on a child of its own: the baseline of the nested target,
    // measured next to it.
    let directChild = ObservedChild()
    let directToken = directChild.observe(\.leaf, options: [.old, .new]) { _, change in
        sink.count &+= change.oldValue! &+ change.newValue!
    }

    // Not a contender: the direct change again, its handler also taking a root object from a weak
    // reference, as a path's delivery must (a path observation holds its root weakly, and a strong
    // reference taken from a weak one is Swift's only safe way to reach an object that another
    // thread may be deinitialising). What that costs alone, next to the direct change.
    final class WeakRoot: @unchecked Sendable { weak var object: ObservedModel? }
    let referenceRoot = ObservedModel()
    let weakRoot = WeakRoot()
    weakRoot.object = referenceRoot
    let referenceChild = ObservedChild()
    let referenceToken = referenceChild.observe(\.leaf, options: [.old, .new]) { _, change in
        guard weakRoot.object != nil else { return }
        sink.count &+= change.oldValue! &+ change.newValue!
    }

    let rewireRoot = RewireReference.Root()
    let rewireChildren = [RewireReference.Child(), RewireReference.Child()]
    rewireRoot.child = rewireChildren[0]
    rewireRoot.observePath { old, new in sink.count &+= old! &+ new! }
    let guardedRoot = GuardedRewireReference.Root()
    let guardedChildren = [GuardedRewireReference.Child(), GuardedRewireReference.Child()]
    guardedRoot.child = guardedChildren[0]
    guardedRoot.observePath { old, new in sink.count &+= old! &+ new! }
    let apiRoot = APIRewireReference.Root()
    let apiChildren = [APIRewireReference.Child(), APIRewireReference.Child()]
    apiRoot.child = apiChildren[0]
    apiRoot.observePath(\APIRewireReference.Root.child?.leaf) { change in
        sink.count &+= change.oldValue! &+ change.newValue!
    }

    let observable = ObservableModel()
    let observableChildren = [ObservableChild(), ObservableChild()]
    observable.child = observableChildren[0]

    let published = PublishedModel()
    let publishedChildren = [PublishedChild(), PublishedChild()]
    published.child = publishedChildren[0]
    let publishedPath = published.$child
        .compactMap { $0 }
        .map { $0.$leaf }
        .switchToLatest()
        .sink { sink.count &+= $0 }

    return [
        Benchmark(group: "nested path: leaf change", name: Name.observed + " \\.child?.leaf (old+new)") { n in
            let child = observedChildren[0]
            observed.child = child
            for i in 0..<n { child.leaf = i }
            blackHole(sink.count)
            withExtendedLifetime(pathToken) {}
        },
        Benchmark(group: "nested path: leaf change", name: Name.observed + " \\.leaf on the child (direct, old+new)") {
            n in
            for i in 0..<n { directChild.leaf = i }
            blackHole(sink.count)
            withExtendedLifetime(directToken) {}
        },
        Benchmark(group: "nested path: leaf change", name: Name.weakRootReference) { n in
            for i in 0..<n { referenceChild.leaf = i }
            blackHole(sink.count)
            withExtendedLifetime((referenceToken, referenceRoot)) {}
        },
        // What the re-wire references' lists cost the leaf change they exist for (guarded: a lock and a
        // copy per set, and the observation's lock), against the reference above.
        Benchmark(group: "nested path: leaf change", name: Name.guardedLeafReference) { n in
            let child = guardedChildren[0]
            guardedRoot.child = child
            for i in 0..<n { child.leaf = i }
            blackHole(sink.count)
        },
        Benchmark(group: "nested path: leaf change", name: Name.apiLeafReference) { n in
            let child = apiChildren[0]
            apiRoot.child = child
            for i in 0..<n { child.leaf = i }
            blackHole(sink.count)
        },
        Benchmark(group: "nested path: leaf change", name: Name.observation + " (re-armed, no values)") { n in
            let child = observableChildren[0]
            observable.child = child
            trackPathThenChangeLeaf(observable, child, sink, n)
        },
        Benchmark(group: "nested path: leaf change", name: Name.published + " (switchToLatest, new only)") { n in
            let child = publishedChildren[0]
            published.child = child
            for i in 0..<n { child.leaf = i }
            blackHole(sink.count)
            withExtendedLifetime(publishedPath) {}
        },
        Benchmark(group: "nested path: intermediate replaced", name: Name.observed + " \\.child?.leaf (old+new)") { n in
            for i in 0..<n { observed.child = observedChildren[i & 1] }
            blackHole(sink.count)
            withExtendedLifetime(pathToken) {}
        },
        Benchmark(group: "nested path: intermediate replaced", name: Name.rewireReference) { n in
            for i in 0..<n { rewireRoot.child = rewireChildren[i & 1] }
            blackHole(sink.count)
        },
        Benchmark(group: "nested path: intermediate replaced", name: Name.guardedRewireReference) { n in
            for i in 0..<n { guardedRoot.child = guardedChildren[i & 1] }
            blackHole(sink.count)
        },
        Benchmark(group: "nested path: intermediate replaced", name: Name.apiRewireReference) { n in
            for i in 0..<n { apiRoot.child = apiChildren[i & 1] }
            blackHole(sink.count)
        },
        Benchmark(group: "nested path: intermediate replaced", name: Name.observation + " (re-armed, no values)") { n in
            for i in 0..<n {
                withObservationTracking {
                    _ = observable.child?.leaf
                } onChange: {
                    sink.count &+= 1
                }
                observable.child = observableChildren[i & 1]
            }
            blackHole(sink.count)
        },
        Benchmark(group: "nested path: intermediate replaced", name: Name.published + " (switchToLatest, new only)") {
            n in
            for i in 0..<n { published.child = publishedChildren[i & 1] }
            blackHole(sink.count)
            withExtendedLifetime(publishedPath) {}
        },
    ]
}

// MARK: - observe + cancel

/// The least a controller built by hand on the public API does: it keeps each token with its object
/// (retained, as a retaining controller does) and key path, finds one by identity and cancels it.
/// No lock, no weak observer, no replacement: a floor for the controller row, not a peer.
final class HandWrittenController {
    final class Record {
        let object: AnyObject
        let keyPath: AnyKeyPath
        let token: ObservationToken

        init(object: AnyObject, keyPath: AnyKeyPath, token: ObservationToken) {
            self.object = object
            self.keyPath = keyPath
            self.token = token
        }
    }

    private var records: [Record] = []

    func observe(_ object: ObservedModel, _ keyPath: KeyPath<ObservedModel, Int>) {
        let token = object.observe(keyPath) { _, _ in }
        records.append(Record(object: object, keyPath: keyPath, token: token))
    }

    func unobserve(_ object: ObservedModel, _ keyPath: KeyPath<ObservedModel, Int>) {
        guard let index = records.firstIndex(where: { $0.object === object && $0.keyPath == keyPath }) else { return }
        records.remove(at: index).token.cancel()
    }
}

func observeCancelBenchmarks() -> [Benchmark] {
    let observed = ObservedModel()
    observed.child = ObservedChild()
    let published = PublishedModel()
    published.child = PublishedChild()
    let didSet = DidSetModel()
    final class Owner {}
    let owner = Owner()
    let controller = ObservationController(observer: owner)
    let handWritten = HandWrittenController()
    let observable = ObservableModel()
    let observableChild = ObservableChild()
    observable.child = observableChild
    let tally = Tally()
    return [
        Benchmark(group: "observe + cancel", name: Name.didSet + " (append + removeLast)") { n in
            for _ in 0..<n {
                didSet.observers.append { _, _ in }
                didSet.observers.removeLast()
            }
            blackHole(didSet)
        },
        Benchmark(group: "observe + cancel", name: Name.observed + " \\.value token") { n in
            for _ in 0..<n {
                let token = observed.observe(\.value) { _, _ in }
                token.cancel()
            }
        },
        Benchmark(group: "observe + cancel", name: Name.observed + " \\.child?.leaf token") { n in
            for _ in 0..<n {
                let token = observed.observe(\.child?.leaf) { _, _ in }
                token.cancel()
            }
        },
        Benchmark(group: "observe + cancel", name: Name.observed + " controller observe/unobserve") { n in
            for _ in 0..<n {
                controller.observe(observed, \.value) { _, _, _ in }
                controller.unobserve(observed, \.value)
            }
        },
        Benchmark(group: "observe + cancel", name: Name.observed + " hand-written controller (no lock)") { n in
            for _ in 0..<n {
                handWritten.observe(observed, \.value)
                handWritten.unobserve(observed, \.value)
            }
        },
        Benchmark(group: "observe + cancel", name: Name.published + " sink + cancel") { n in
            for _ in 0..<n {
                let cancellable = published.$value.sink { _ in }
                cancellable.cancel()
            }
        },
        Benchmark(group: "observe + cancel", name: Name.published + " \\.child?.leaf switchToLatest sink + cancel") {
            n in
            for _ in 0..<n {
                let cancellable = published.$child.compactMap { $0 }.map { $0.$leaf }.switchToLatest().sink { _ in }
                cancellable.cancel()
            }
        },
        Benchmark(
            group: "observe + cancel", name: Name.observation + " \\.child?.leaf (tracking ended by a leaf change)"
        ) { n in
            trackPathThenChangeLeaf(observable, observableChild, tally, n)
        },
        Benchmark(group: "observe + cancel", name: Name.observation + " (tracking ended by a change)") { n in
            for i in 0..<n {
                withObservationTracking {
                    _ = observable.value
                } onChange: {
                    tally.count &+= 1
                }
                observable.value = i
            }
            blackHole(tally.count)
        },
    ]
}

// MARK: - four threads

/// The threads of the multi-threaded groups.
let benchmarkThreads = 4

/// Runs `body` on `benchmarkThreads` threads at once, each with its index and its share of `n`.
func onThreads(_ n: Int, _ body: @escaping @Sendable (_ thread: Int, _ count: Int) -> Void) {
    DispatchQueue.concurrentPerform(iterations: benchmarkThreads) { index in
        body(index, max(1, n / benchmarkThreads))
    }
}

/// Four threads, each setting its own object that has one observer; time per set, all threads together.
func threadBenchmarks() -> [Benchmark] {
    let group = "4 threads setting, 1 observer each"
    final class PerThread: @unchecked Sendable {
        let sink = Tally()
        let didSet = DidSetModel()
        let observed = ObservedModel()
        let observable = ObservableModel()
        let published = PublishedModel()
        var token: ObservationToken?
        var cancellable: AnyCancellable?
        init() {
            didSet.observers.append { [sink] old, new in sink.count &+= old &+ new }
            token = observed.observe(\.value, options: [.old, .new]) { [sink] _, change in
                sink.count &+= change.oldValue! &+ change.newValue!
            }
            cancellable = published.$value.sink { [sink] in sink.count &+= $0 }
        }
    }
    let states = (0..<benchmarkThreads).map { _ in PerThread() }
    func parallel(_ n: Int, _ body: @escaping @Sendable (PerThread, Int) -> Void) {
        onThreads(n) { index, count in body(states[index], count) }
    }
    return [
        Benchmark(group: group, name: Name.didSet) { n in
            parallel(n) { state, count in for i in 0..<count { state.didSet.value = i } }
        },
        Benchmark(group: group, name: Name.observed + " (old+new)") { n in
            parallel(n) { state, count in for i in 0..<count { state.observed.value = i } }
        },
        Benchmark(group: group, name: Name.published + " (new only)") { n in
            parallel(n) { state, count in for i in 0..<count { state.published.value = i } }
        },
        Benchmark(group: group, name: Name.observation + " (re-armed, no values)") { n in
            parallel(n) { state, count in
                for i in 0..<count {
                    withObservationTracking {
                        _ = state.observable.value
                    } onChange: { [sink = state.sink] in
                        sink.count &+= 1
                    }
                    state.observable.value = i
                }
            }
        },
    ]
}

/// Four threads observing and cancelling on one shared object: registrations contend for its list's
/// lock (the `ShortLock` choice on Linux, BENCHMARKS.md). Time per observe + cancel pair, all threads
/// together.
func contendedRegistrationBenchmarks() -> [Benchmark] {
    // Shared by the threads; only registration and cancellation touch them (nothing is set).
    final class Shared: @unchecked Sendable {
        let observed = ObservedModel(), published = PublishedModel(), sink = Tally()
    }
    let shared = Shared()
    let group = "4 threads observe + cancel, one object"
    return [
        Benchmark(group: group, name: Name.observed + " \\.value token") { n in
            onThreads(n) { _, count in
                for _ in 0..<count {
                    let token = shared.observed.observe(\.value) { [sink = shared.sink] _, change in
                        sink.count &+= change.newValue!
                    }
                    token.cancel()
                }
            }
        },
        Benchmark(group: group, name: Name.published + " sink") { n in
            onThreads(n) { _, count in
                for _ in 0..<count {
                    let cancellable = shared.published.$value.sink { [sink = shared.sink] in sink.count &+= $0 }
                    cancellable.cancel()
                }
            }
        },
    ]
}
