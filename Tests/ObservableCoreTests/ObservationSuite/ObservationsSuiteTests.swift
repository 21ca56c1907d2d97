import ObservableCore
import Observation
import Testing

// Swift's `test/stdlib/Observation/Observations.swift`, its models migrated as the README says. The
// original runs every test on the main actor (its `main()` is `@MainActor`), which the timing of
// "Rapid successive changes" relies on; so does this suite. Every assertion is kept.

enum ObservationsSuite {
    @KeyValueObservable
    final class TestModel: Observable {
        var value: Int = 0
        var name: String = "test"
    }

    @KeyValueObservable
    final class AsyncTestModel: Observable {
        var count: Int = 0

        func increment() async {
            await Task.yield()  // Simulate async work
            count += 1
        }
    }

    enum TestError: Error, Equatable {
        case simulatedError
        case anotherError
    }

    /// The suite's closure-captured `var`s, made safe to share with the sequence's closure.
    final class Flag: @unchecked Sendable {
        var value = false
    }
}

@Suite("Swift's Observations.swift suite, models migrated", .timeLimit(.minutes(1)))
@MainActor
struct ObservationsSuiteTests {
    typealias TestModel = ObservationsSuite.TestModel
    typealias TestError = ObservationsSuite.TestError

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test("Basic element emission")
    func basicElementEmission() async {
        let model = TestModel()

        let observations = Observations<Int, Never> {
            model.value
        }

        var iterator = observations.makeAsyncIterator()

        // Get first value (initial)
        let first = await iterator.next()
        #expect(first == 0)

        // Modify the model in a separate task
        Task {
            await Task.yield()
            model.value = 42
        }

        // Get second value (after change)
        let second = await iterator.next()
        #expect(second == 42)
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test("Multiple property tracking")
    func multiplePropertyTracking() async {
        let model = TestModel()

        let observations = Observations<String, Never> {
            "\(model.name):\(model.value)"
        }

        var iterator = observations.makeAsyncIterator()

        // Get initial value
        let first = await iterator.next()
        #expect(first == "test:0")

        // Modify both properties
        Task {
            await Task.yield()
            model.name = "updated"
            model.value = 100
        }

        let second = await iterator.next()
        #expect(second == "updated:100")
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test("Error handling in emit closure")
    func errorHandlingInEmitClosure() async throws {
        let model = TestModel()
        let shouldThrow = ObservationsSuite.Flag()

        let observations = Observations<Int, TestError> { () throws(TestError) -> Int in
            if shouldThrow.value {
                throw TestError.simulatedError
            }
            return model.value
        }

        var iterator = observations.makeAsyncIterator()

        // First iteration should succeed
        let first = try await iterator.next()
        #expect(first == 0)

        // Enable error throwing and trigger change
        Task {
            await Task.yield()
            shouldThrow.value = true
            model.value = 42
        }

        // Second iteration should throw
        do {
            _ = try await iterator.next()
            Issue.record("Expected error to be thrown")
        } catch TestError.simulatedError {
            // Expected error
        } catch {
            Issue.record("Unexpected error type: \(error)")
        }

        // Sequence should be terminated after error
        let afterError = try await iterator.next()
        #expect(afterError == nil)
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test("Concurrent observers")
    func concurrentObservers() async {
        let model = TestModel()

        let observations = Observations<Int, Never> {
            model.value
        }

        // Create multiple concurrent iterators
        let task1 = Task {
            var iterator = observations.makeAsyncIterator()
            var values: [Int] = []
            for _ in 0..<3 {
                if let value = await iterator.next() {
                    values.append(value)
                }
            }
            return values
        }

        let task2 = Task {
            var iterator = observations.makeAsyncIterator()
            var values: [Int] = []
            for _ in 0..<3 {
                if let value = await iterator.next() {
                    values.append(value)
                }
            }
            return values
        }

        // Trigger changes
        let changeTask = Task {
            await Task.yield()
            model.value = 100
            await Task.yield()
            model.value = 200
        }

        let (result1, result2) = await (task1.value, task2.value)
        await changeTask.value

        // Both iterators should see the same progression of values
        #expect(result1.count == 3)
        #expect(result2.count == 3)
        #expect(result1[0] == 0)  // Initial value
        #expect(result2[0] == 0)  // Initial value
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test("Task cancellation behavior")
    func taskCancellationBehavior() async {
        let model = TestModel()

        let observations = Observations<Int, Never> {
            model.value
        }

        let task = Task {
            var iterator = observations.makeAsyncIterator()
            var values: [Int] = []

            // Get initial value
            if let value = await iterator.next() {
                values.append(value)
            }

            // This should be cancelled before getting next value
            if let value = await iterator.next() {
                values.append(value)
            }

            return values
        }

        // Let the task start and get the first value
        await Task.yield()

        // Cancel the task
        task.cancel()

        let result = await task.value

        // Should only have gotten the initial value before cancellation
        #expect(result.count == 1)
        #expect(result[0] == 0)
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test("Rapid successive changes")
    func rapidSuccessiveChanges() async {
        let model = TestModel()

        let observations = Observations<Int, Never> {
            model.value
        }

        var iterator = observations.makeAsyncIterator()

        // Get initial value
        let first = await iterator.next()
        #expect(first == 0)

        // Make rapid changes
        Task {
            await Task.yield()
            for i in 1...5 {
                model.value = i
            }
        }

        // Should get the final state after all rapid changes
        let second = await iterator.next()
        #expect(second == 5)
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test("Empty sequence behavior")
    func emptySequenceBehavior() async {
        // Test sequence that immediately finishes
        let observations = Observations<Int, Never>.untilFinished {
            return .finish
        }

        var iterator = observations.makeAsyncIterator()
        let result = await iterator.next()
        #expect(result == nil)
    }

    @Test("the async model counts, as the suite declares it")
    func asyncModel() async {
        let model = ObservationsSuite.AsyncTestModel()
        let changed = ObservableSuite.CapturedState(state: false)
        withObservationTracking {
            _blackHole(model.count)
        } onChange: {
            changed.state = true
        }
        await model.increment()
        #expect(model.count == 1 && changed.state)
    }
}
