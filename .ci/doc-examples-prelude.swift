// The model of the articles' examples: the one "Getting started" declares, given to every article
// whose examples do not declare `Person` or `Address` themselves (.ci/doc-examples.py).
import ObservableCore

final class Address: KeyValueObservable {
    @Observed var city: String
    init(city: String = "") { self.city = city }
}

final class Person: KeyValueObservable {
    @Observed var name: String
    @Observed var age = 0
    @Observed var tags: [String] = []
    @Observed var address: Address?
    var summary: String { "\(name), \(age)" }
    init(name: String = "Ann") { self.name = name }
}

@MainActor let person = Person()
