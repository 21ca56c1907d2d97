import Dispatch
import Foundation
import ObservableCore

// `Benchmarks --locks`: 64 threads, more than this machine's cores, registering and cancelling
// observations with a set in between, on one object (every registration takes that property's list
// lock) and on an object each (only the process-wide tables are shared): throughput, the slowest
// single observe + set + cancel, and the CPU time per operation (where a spinning waiter would show).
// BENCHMARKS.md, "Locks under load", has the run that compared it with the spin lock it replaced.

private final class LockedModel: KeyValueObservable, @unchecked Sendable {  // its one property is the point of the test
    @Observed var value = 0
}

/// What one thread measured: its slowest round trip, in nanoseconds.
private final class ThreadResult: @unchecked Sendable {  // written by one thread, read after it ends
    var slowest: UInt64 = 0
    var sum = 0
}

private func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// The CPU time the process has used, every thread's, in nanoseconds.
private func processorTime() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Runs `threads` threads doing `perThread` observe + set + cancel each, on one shared object or an
/// object each; returns the wall time, the slowest single operation of any thread, and the CPU time
/// all threads used.
private func contend(threads: Int, perThread: Int, shared: Bool) -> (seconds: Double, slowest: UInt64, cpu: UInt64) {
    let models = shared ? [LockedModel()] : (0..<threads).map { _ in LockedModel() }
    let results = (0..<threads).map { _ in ThreadResult() }
    let start = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    for index in 0..<threads {
        let model = models[shared ? 0 : index]
        let result = results[index]
        done.enter()
        let thread = Thread {
            start.wait()
            for i in 0..<perThread {
                let before = now()
                let token = model.observe(\.value) { _, change in result.sum &+= change.newValue! }
                model.value = i
                token.cancel()
                result.slowest = max(result.slowest, now() - before)
            }
            done.leave()
        }
        thread.stackSize = 1 << 18
        thread.start()
    }
    let began = now()
    let cpuBefore = processorTime()
    for _ in 0..<threads { start.signal() }
    done.wait()
    let seconds = Double(now() - began) / 1e9
    return (seconds, results.map(\.slowest).max() ?? 0, processorTime() - cpuBefore)
}

func runLockContention(quick: Bool) {
    let threads = 64
    let perThread = quick ? 200 : 5_000
    let rounds = quick ? 1 : 3
    print("## Locks under load: \(threads) threads, \(ProcessInfo.processInfo.activeProcessorCount) cores")
    print("")
    print("observe + set + cancel, \(perThread) per thread; each cell: the median of \(rounds) rounds (the rounds)")
    print("")
    print("| workload | operations/s | slowest operation | CPU time per operation |")
    print("| --- | ---: | ---: | ---: |")
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    for shared in [true, false] {
        let runs = (0..<rounds).map { _ in contend(threads: threads, perThread: perThread, shared: shared) }
        let throughputs = runs.map { Double(threads * perThread) / $0.0 }
        let slowest = runs.map { Double($0.1) / 1e3 }
        let cpu = runs.map { Double($0.2) / Double(threads * perThread) }
        let rate = throughputs.map { String(format: "%.0f", $0) }.joined(separator: ", ")
        let worst = slowest.map { String(format: "%.0f", $0) }.joined(separator: ", ")
        let cpuText = cpu.map { String(format: "%.2f", $0 / 1e3) }.joined(separator: ", ")
        print(
            "| \(shared ? "one object" : "an object each") | "
                + String(format: "%.0f", median(throughputs)) + " (\(rate)) | "
                + String(format: "%.0f µs", median(slowest)) + " (\(worst)) | "
                + String(format: "%.2f µs", median(cpu) / 1e3) + " (\(cpuText)) |")
    }
}
