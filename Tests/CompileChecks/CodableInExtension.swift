// expect-error: type 'Settings' does not conform to protocol 'Decodable'
// A conformance declared in an extension is out of every macro's sight: the compiler's synthesis
// fails on the extension, its note naming 'ObservationSlot'. Declare 'Codable' on the class itself,
// where '@KeyValueObservable' writes it (README, "Codable models").
import ObservableCore

@KeyValueObservable
final class Settings {
    var volume = 3
    init() {}
}

extension Settings: Codable {}
