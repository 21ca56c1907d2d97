// expect-error: type 'Settings' does not conform to protocol 'Decodable'
// expect-error: type 'Settings' does not conform to protocol 'Encodable'
// expect-note: cannot automatically synthesize 'Decodable' because 'ObservableCore.ObservationSlot_ForCodableAddKeyValueObservableAndDeclareCodableOnTheClass' does not conform to 'Decodable'
// A conformance declared in an extension is out of every macro's sight: the compiler's synthesis
// fails on the extension, and its note names the slot by the alias that says what to do. Declare
// 'Codable' on the class itself, where '@KeyValueObservable' writes it (README, "Codable models").
import ObservableCore

@KeyValueObservable
final class Settings {
    var volume = 3
    init() {}
}

extension Settings: Codable {}
