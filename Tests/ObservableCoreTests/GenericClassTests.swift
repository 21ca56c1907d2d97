import Testing

@testable import ObservableCore

@KeyValueObservable
final class GenericBox<T>: KeyValueObservable {
    @Observed var value: T
    @Observed var child: GenericBox<T>?
    init(_ value: T) { self.value = value }
}

final class IntBox: KeyValueObservable {
    @Observed var value: Int
    @Observed var child: IntBox?
    init(_ value: Int) { self.value = value }
}

@Suite("Generic classes")
struct GenericClassTests {
    @Test(
        "re-wiring a nested path through a generic class keeps the process-wide tables flat, as for a non-generic one")
    func rewiringStaysFlat() {
        func rewire<Box: AnyObject>(
            _ root: Box, child: ReferenceWritableKeyPath<Box, Box?>, make: (Int) -> Box, times: Int
        ) {
            for index in 0..<times { root[keyPath: child] = make(index) }
        }
        let generic = GenericBox(0)
        let plain = IntBox(0)
        var heard = 0
        let tokens = [
            generic.observe(\.child?.value) { _, _ in heard += 1 },
            plain.observe(\.child?.value) { _, _ in heard += 1 },
        ]
        // Warm up: every distinct path and property is recorded once.
        rewire(generic, child: \.child, make: { GenericBox($0) }, times: 10)
        rewire(plain, child: \.child, make: { IntBox($0) }, times: 10)
        let proofs = ProofTable.shared.count
        let internedKeyPaths = KeyPathTable.shared.count
        rewire(generic, child: \.child, make: { GenericBox($0) }, times: 2_000)
        rewire(plain, child: \.child, make: { IntBox($0) }, times: 2_000)
        #expect(heard == 4_020)
        // Suites running alongside add their own few entries; a leak added one or more per re-wire.
        #expect(ProofTable.shared.count - proofs < 100)
        #expect(KeyPathTable.shared.count - internedKeyPaths < 100)
        // The leaf is still proven for the generic class: a change of it is delivered from the setter.
        var leaf: [Seen<Int>] = []
        let token = generic.observe(\.child?.value) { _, change in
            leaf.append(Seen(phase: "post", old: change.oldValue ?? nil, new: change.newValue ?? nil))
        }
        generic.child?.value = 7
        #expect(leaf == [Seen(phase: "post", old: 1_999, new: 7)])
        withExtendedLifetime((tokens, token)) {}
    }
}
