import ObservableCore
import Observation
import OpenCombine

// One change delivered through an asynchronous sequence: set, then await the element, in one task,
// so that each element is one change (`Observations` coalesces changes made between two `next()`
// calls; this loop makes one at a time). The task hop into the loop is paid once per sample. Each set
// stores a value the property does not hold: `@Observable` does not notify an equal one.

/// `@Observable`, shared with the task that sets and iterates it.
@Observable final class SharedObservableModel: @unchecked Sendable {
    var value = 0
}

/// `@Published`, shared with the task that sets and iterates it.
final class SharedPublishedModel: @unchecked Sendable {
    @OpenCombine.Published var value = 0
}

/// An iterator made on the setting thread and drained by a task, for the setting thread's part alone.
final class ChangeIteratorBox: @unchecked Sendable {
    private var iterator: ObservedChangeSequence<SharedModel, Int>.Iterator

    init(_ iterator: ObservedChangeSequence<SharedModel, Int>.Iterator) {
        self.iterator = iterator
    }

    /// The sum of the next `count` changes' new values.
    func drain(_ count: Int) async -> Int {
        var sum = 0
        for _ in 0..<count { sum &+= await iterator.next()!.newValue! }
        return sum
    }
}

func changeSequenceBenchmarks() -> [Benchmark] {
    let group = "async sequence: per change"
    let observed = SharedModel()
    let observable = SharedObservableModel()
    let published = SharedPublishedModel()
    var benchmarks = [
        Benchmark(group: group, name: Name.observed + " changes(of: \\.value)") { n in
            let sum = waitForTask {
                var sum = 0
                var changes = observed.changes(of: \.value).makeAsyncIterator()
                let start = observed.value &+ 1
                for i in 0..<n {
                    observed.value = start &+ i
                    sum &+= await changes.next()!.newValue!
                }
                return sum
            }
            blackHole(sum)
        },
        Benchmark(group: group, name: Name.published + " $value.values") { n in
            let sum = waitForTask {
                var sum = 0
                var values = published.$value.values.makeAsyncIterator()
                sum &+= await values.next()!  // the current value comes first
                let start = published.value &+ 1
                for i in 0..<n {
                    published.value = start &+ i
                    sum &+= await values.next()!
                }
                return sum
            }
            blackHole(sum)
        },
        // What the speed gate counts (only the thread that sets): each change buffered for a task that
        // drains them afterwards.
        Benchmark(group: group, name: Name.observed + " changes(of: \\.value), the setting thread's part (buffered)") {
            n in
            let changes = ChangeIteratorBox(observed.changes(of: \.value).makeAsyncIterator())
            for i in 0..<n { observed.value = i }
            blackHole(waitForTask { await changes.drain(n) })
        },
    ]
    if #available(macOS 26.0, *) {
        benchmarks.append(
            Benchmark(group: group, name: Name.observation + " Observations { }") { n in
                let sum = waitForTask {
                    var sum = 0
                    var values = Observations { observable.value }.makeAsyncIterator()
                    sum &+= await values.next()!  // the current value comes first
                    let start = observable.value &+ 1
                    for i in 0..<n {
                        observable.value = start &+ i
                        sum &+= await values.next()!
                    }
                    return sum
                }
                blackHole(sum)
            })
    }
    return benchmarks
}
