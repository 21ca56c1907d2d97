// The model of the articles' examples: the one "Getting started" declares, given to every article
// whose examples do not declare `Person` or `Address` themselves (.ci/doc-examples.py).
import ObservableCore

@KeyValueObservable
final class Address {
    var city: String
    init(city: String = "") { self.city = city }
}

@KeyValueObservable
final class Person {
    var name: String
    var age = 0
    var tags: [String] = []
    var address: Address?
    var summary: String { "\(name), \(age)" }
    init(name: String = "Ann") { self.name = name }
}

@MainActor let person = Person()
