import ObservableCore
import Observation
import Testing

// Swift's `test/stdlib/Observation/ObservableDidSetWillSet.swift`, its model migrated as the README
// says. The original prints and checks the output with FileCheck; here the lines are recorded and
// compared, each `CHECK` kept.

enum DidSetWillSetSuite {
    @KeyValueObservable
    public class Model: Observable {
        public enum State {
            case initializing
            case running
            case complete
        }

        @Unobserved public var printed: [String] = []

        public var state: State = .initializing {
            willSet {
                printed.append("new state=\(String(describing: newValue))")
            }

            didSet {
                guard oldValue != state else { return }
                printed.append("old state=\(String(describing: oldValue))")
            }
        }
    }
}

@Suite("Swift's ObservableDidSetWillSet.swift suite, model migrated")
struct ObservableDidSetWillSetTests {
    @Test("willSet sees the new value and didSet the old one, once per set")
    func willSetAndDidSet() {
        let m = DidSetWillSetSuite.Model()

        // CHECK: new state=running
        // CHECK: old state=initializing
        m.state = .running
        // CHECK: new state=complete
        // CHECK: old state=running
        m.state = .complete
        #expect(
            m.printed == [
                "new state=running", "old state=initializing", "new state=complete", "old state=running",
            ])
    }
}
