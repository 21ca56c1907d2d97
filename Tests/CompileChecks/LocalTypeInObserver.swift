// expect: builds
// Types declared inside a property's observers (moved out of the macro-generated storage, where
// Swift would not emit them: swiftlang/swift#88174), in a plain and in a generic class.
import ObservableCore

final class Gauge: KeyValueObservable {
    var log: [String] = []
    @Observed var level = 0 {
        didSet {
            struct Helper {
                var value: Int
                static func clamped(_ value: Int) -> Helper { Helper(value: min(value, 10)) }
            }
            enum Kind { case low, high }
            let kind: Kind = Helper.clamped(level).value > 5 ? .high : .low
            log.append("\(kind)")
        }
    }
}

final class Box<T>: KeyValueObservable {
    @Observed var value: T {
        willSet {
            struct Note { let text: String }
            _ = Note(text: "\(newValue)")
        }
    }
    init(_ value: T) { self.value = value }
}
