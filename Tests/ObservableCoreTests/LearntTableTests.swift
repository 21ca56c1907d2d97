import Synchronization
import Testing

@testable import ObservableCore

/// `LearntTable`, the lock-guarded tables of what is learnt once per class, type or string: run
/// under ThreadSanitizer in `.ci/run`, which sees an unguarded read of its dictionary.
@Suite("Learnt tables")
struct LearntTableTests {
    private final class Learnt: Sendable {
        let key: Int
        init(key: Int) { self.key = key }
    }

    private final class Count: Sendable {
        let value = Atomic(0)
    }

    @Test("a key is learnt once and then known; another key is learnt apart")
    func learnsOnce() {
        let table = LearntTable<Int, Learnt>()
        var learnings = 0
        #expect(table.known(1) == nil)
        let first = table.value(for: 1) {
            learnings += 1
            return Learnt(key: 1)
        }
        let again = table.value(for: 1) {
            learnings += 1
            return Learnt(key: -1)
        }
        #expect(first === again)
        #expect(table.known(1) === first)
        #expect(learnings == 1)
        #expect(table.value(for: 2) { Learnt(key: 2) }.key == 2)
        #expect(table.known(1) === first)
    }

    @Test("threads learning the same keys at once all get the value stored first")
    func concurrent() async {
        let table = LearntTable<Int, Learnt>()
        let learnings = Count()
        let seen = await withTaskGroup(of: [ObjectIdentifier].self) { group in
            for _ in 0..<4 {
                group.addTask {
                    (0..<200).map { key in
                        ObjectIdentifier(
                            table.value(for: key) {
                                learnings.value.add(1, ordering: .relaxed)
                                return Learnt(key: key)
                            })
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(seen.count == 4)
        for key in 0..<200 {
            let stored = table.known(key)
            #expect(stored?.key == key)
            #expect(seen.allSatisfy { $0[key] == stored.map(ObjectIdentifier.init) })
        }
        #expect((200...800).contains(learnings.value.load(ordering: .relaxed)))
    }
}
