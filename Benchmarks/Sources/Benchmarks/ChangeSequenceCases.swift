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

/// The loop every contender runs: sets `n` values the property does not hold (from `start`),
/// awaiting each change through `iterator` before the next set; the sum of the values it gave.
func setThenAwaitEach<Iterator: AsyncIteratorProtocol>(
    _ n: Int, from iterator: inout Iterator, start: Int, set: (Int) -> Void, value: (Iterator.Element) -> Int
) async -> Int where Iterator.Failure == Never {
    var sum = 0
    for i in 0..<n {
        set(start &+ i)
        sum &+= value(await iterator.next(isolation: nil)!)
    }
    return sum
}

func changeSequenceBenchmarks() -> [Benchmark] {
    let group = "async sequence: per change"
    let observed = SharedModel()
    let observable = SharedObservableModel()
    let published = SharedPublishedModel()
    var benchmarks = [
        Benchmark(group: group, name: Name.observed + " changes(of: \\.value)") { n in
            blackHole(
                waitForTask {
                    var changes = observed.changes(of: \.value).makeAsyncIterator()
                    return await setThenAwaitEach(
                        n, from: &changes, start: observed.value &+ 1, set: { observed.value = $0 },
                        value: { $0.newValue! })
                })
        },
        Benchmark(group: group, name: Name.published + " $value.values") { n in
            blackHole(
                waitForTask {
                    var values = published.$value.values.makeAsyncIterator()
                    let current = await values.next()!  // the current value comes first
                    return await setThenAwaitEach(
                        n, from: &values, start: current &+ 1, set: { published.value = $0 }, value: { $0 })
                })
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
                blackHole(
                    waitForTask {
                        var values = Observations { observable.value }.makeAsyncIterator()
                        let current = await values.next()!  // the current value comes first
                        return await setThenAwaitEach(
                            n, from: &values, start: current &+ 1, set: { observable.value = $0 }, value: { $0 })
                    })
            })
    }
    return benchmarks
}
