import CHeapInfo
import ObservableCore
import Observation
import OpenCombine

/// Heap bytes in use, from the C allocator (glibc's mallinfo2; 0 elsewhere).
func heapInUse() -> Int {
    Int(cheapinfo_heap_in_use())
}

/// Average heap bytes per value made by `make`, over `count` values kept alive together.
func bytesPerValue<T>(count: Int = 20_000, _ make: () -> T) -> Double {
    var values: [T] = []
    values.reserveCapacity(count)
    let before = heapInUse()
    for _ in 0..<count { values.append(make()) }
    let after = heapInUse()
    blackHole(values)
    return Double(after - before) / Double(count)
}

struct MemoryReport {
    var rows: [(String, Double)] = []
}

func memoryReport() -> MemoryReport {
    var report = MemoryReport()
    let plain = bytesPerValue { PlainTen() }
    let observed = bytesPerValue { ObservedTen() }
    let observable = bytesPerValue { ObservableTen() }
    let published = bytesPerValue { PublishedTen() }
    report.rows.append(("instance with 10 Int properties: plain", plain))
    report.rows.append(("instance with 10 Int properties: " + Name.observed, observed))
    report.rows.append(("instance with 10 Int properties: " + Name.observation, observable))
    report.rows.append(("instance with 10 Int properties: " + Name.published, published))
    report.rows.append(("per unobserved property over plain: " + Name.observed, (observed - plain) / 10))
    report.rows.append(("per unobserved property over plain: " + Name.observation, (observable - plain) / 10))
    report.rows.append(("per unobserved property over plain: " + Name.published, (published - plain) / 10))

    // One observation whose handler captures one object, as most real handlers do.
    let captured = Tally()
    let observedModel = ObservedModel()
    _ = observedModel.observe(\.value) { _, _ in }  // the property's list exists before measuring
    report.rows.append(
        (
            "per observation: " + Name.observed + " \\.value token",
            bytesPerValue {
                observedModel.observe(\.value) { _, _ in captured.count += 1 }
            }
        ))
    observedModel.child = ObservedChild()
    report.rows.append(
        (
            "per observation: " + Name.observed + " \\.child?.leaf token",
            bytesPerValue(count: 5_000) {
                observedModel.observe(\.child?.leaf) { _, _ in captured.count += 1 }
            }
        ))
    let publishedModel = PublishedModel()
    report.rows.append(
        (
            "per observation: " + Name.published + " sink",
            bytesPerValue {
                publishedModel.$value.sink { _ in captured.count += 1 }
            }
        ))
    publishedModel.child = PublishedChild()
    report.rows.append(
        (
            "per observation: " + Name.published + " \\.child?.leaf switchToLatest sink",
            bytesPerValue(count: 5_000) {
                publishedModel.$child.compactMap { $0 }.map { $0.$leaf }.switchToLatest().sink { _ in
                    captured.count += 1
                }
            }
        ))
    let observableModel = ObservableModel()
    report.rows.append(
        (
            "per observation: " + Name.observation + " withObservationTracking",
            bytesPerValue {
                withObservationTracking {
                    _ = observableModel.value
                } onChange: {
                    captured.count += 1
                }
            }
        ))
    observableModel.child = ObservableChild()
    report.rows.append(
        (
            "per observation: " + Name.observation + " withObservationTracking \\.child?.leaf",
            bytesPerValue(count: 5_000) {
                withObservationTracking {
                    _ = observableModel.child?.leaf
                } onChange: {
                    captured.count += 1
                }
            }
        ))
    let handWritten = DidSetModel()
    report.rows.append(
        (
            "per observation: " + Name.didSet,
            bytesPerValue {
                handWritten.observers.append { _, _ in captured.count += 1 }
            }
        ))
    return report
}
