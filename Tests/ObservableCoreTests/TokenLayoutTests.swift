import Testing

@testable import ObservableCore

/// The token's one unsafe assumption (see `ObservationToken.observation`): the storage of its
/// `unowned` field is the observation's address. `.ci/run` also runs this suite in a release build,
/// where the optimiser could lay things out differently and where asserts are gone.
@Suite("Token layout")
struct TokenLayoutTests {
    @Test("a token reads its observation at the observation's address, while active and after it ended")
    func tokenReadsTheObservationsAddress() {
        let token: ObservationToken
        let address: UnsafeMutableRawPointer
        do {
            let person = Person()
            let observation = Registration.register(person, \Person.age, options: [.old, .new], handler: { _, _ in })
            address = Unmanaged.passUnretained(observation).toOpaque()
            token = ObservationToken(observation)
            #expect(token.observationAddress == address)
            #expect(token.isActive)
        }
        // The person is gone: the observation ended and was deinitialised; its memory stays while
        // the token refers to it, and the token still reads its state there.
        #expect(token.observationAddress == address)
        #expect(!token.isActive)
        token.cancel()
        #expect(!token.isActive)
    }

    @Test("a token made by observe refers to the observation registered for it, until cancelled")
    func observeMakesATokenOfTheRegisteredObservation() {
        let person = Person()
        var ages: [Int] = []
        let token = person.observe(\.age) { _, change in ages.append(change.newValue!) }
        person.age = 1
        #expect(token.isActive)
        token.cancel()
        #expect(!token.isActive)
        person.age = 2
        #expect(ages == [1])
    }
}
