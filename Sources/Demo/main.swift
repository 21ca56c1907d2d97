// A guided tour of ObservableCore: run it with `swift run Demo`.
import ObservableCore

final class Address: KeyValueObservable {
    @Observed var city: String
    init(city: String) { self.city = city }
}

final class Person: KeyValueObservable {
    @Observed var name: String
    @Observed var age = 0
    @Observed var address: Address?
    var nickname = ""                       // no attribute: not observable
    var greeting: String { "Hi, \(name) (\(age))" }
    init(name: String) { self.name = name }
}

final class Settings: KeyValueObservable {
    @Observed var showsAge = true
}

final class ProfileViewModel {
    lazy var observations = ObservationController(observer: self)
    private(set) var headline = ""
    private var person: Person?
    private var settings: Settings?

    func bind(_ person: Person, _ settings: Settings) {
        self.person = person
        self.settings = settings
        // One handler for two key paths; the view model arrives as the first argument, so there is
        // no [weak self] to write, and nothing retains the view model.
        observations.observe(person, keyPaths: [\.name, \.age]) { viewModel, _, change in
            say("person changed (\(change.keyPath == \Person.name ? "name" : "age")); redrawing")
            viewModel.render()
        }
        // Or a method of the view model, as KVOController's target-action.
        observations.observe(settings, \.showsAge, action: ProfileViewModel.settingsDidChange)
        render()
    }

    func settingsDidChange(_ settings: Settings, _ change: ObservedChange<Bool>) {
        say("settings changed: showsAge \(show(change.oldValue)) → \(show(change.newValue)); redrawing")
        render()
    }

    func render() {
        guard let person, let settings else { return }
        headline = settings.showsAge ? "\(person.name), \(person.age)" : person.name
        say("headline: \(headline)")
    }
}

func say(_ line: String) { print("   \(line)") }
func show<Value>(_ value: Value?) -> String {
    guard let value else { return "—" }
    return String(describing: value)
}

/// The whole tour runs in one function, so every object it makes is freed before the program
/// exits (which also lets `valgrind --leak-check=full swift run Demo`-style checks stay clean).
func tour() {
    var chapter = 0
    func section(_ title: String) {
        chapter += 1
        print("\n\(chapter). \(title)")
    }

    print("ObservableCore: key-value observing for plain Swift classes, on Linux too.")
    print("Meet Ann. She is a Person with an @Observed name, age and address.")
    let ann = Person(name: "Ann")

    section("Old and new values, right after every set")
    let nameToken = ann.observe(\.name, options: [.old, .new]) { person, change in
        say("name changed: \(show(change.oldValue)) → \(show(change.newValue))")
    }
    ann.name = "Anna"
    ann.name = "Anna"
    say("(the same value set twice notifies twice, as Cocoa KVO does)")

    section("When each notification arrives: .initial, .prior, then after the store")
    let ageToken = ann.observe(\.age, options: [.initial, .prior, .old, .new]) { person, change in
        if change.isPrior {
            say("about to change age; it is still \(show(change.oldValue)) (stored: \(person.age))")
        } else if change.oldValue == nil {
            say("initial age: \(show(change.newValue)), delivered before observe(...) returned")
        } else {
            say("age changed: \(show(change.oldValue)) → \(show(change.newValue)) (stored: \(person.age))")
        }
    }
    ann.age = 30
    ageToken.cancel()

    section("A nested key path that follows its intermediate object")
    let cityToken = ann.observe(\.address?.city, options: [.initial, .new]) { _, change in
        say("Ann's city is now \(show(change.newValue ?? nil))")
    }
    let oslo = Address(city: "Oslo")
    say("Ann moves into an address in Oslo:")
    ann.address = oslo
    say("the address is renamed to Bergen:")
    oslo.city = "Bergen"
    say("Ann moves to Rome, a different Address object:")
    ann.address = Address(city: "Rome")
    say("the old address changes again; Ann no longer lives there, so nothing is reported:")
    oslo.city = "Trondheim"
    say("Ann loses her address:")
    ann.address = nil
    cityToken.cancel()

    section("A computed property, observed through the properties it reads")
    let greetingToken = ann.observe(\.greeting, options: [.new]) { _, change in
        say("greeting: \(show(change.newValue))")
    }
    ann.age = 31
    ann.nickname = "Annie"
    say("(nickname is not @Observed: setting it told nobody)")
    greetingToken.cancel()

    section("Cancelling a token (releasing it does the same)")
    nameToken.cancel()
    ann.name = "Hanna"
    say("name set to \(ann.name) after cancel(): no callback; token active? \(nameToken.isActive)")

    section("The observed object goes away")
    var bob: Person? = Person(name: "Bob")
    weak var weakBob: Person?
    weakBob = bob
    let bobToken = bob!.observe(\.name) { _, change in say("Bob's name: \(show(change.newValue))") }
    bob!.name = "Robert"
    say("Bob is released while still observed…")
    bob = nil
    say("Bob deallocated: \(weakBob == nil); his observation ended by itself: active? \(bobToken.isActive)")

    section("A view model that owns its observations (ObservationController)")
    let carla = Person(name: "Carla")
    let settings = Settings()
    var viewModel: ProfileViewModel? = ProfileViewModel()
    weak var weakViewModel: ProfileViewModel?
    weakViewModel = viewModel
    viewModel!.bind(carla, settings)
    carla.age = 41
    settings.showsAge = false
    say("the view model goes away; its controller ends every observation it made:")
    viewModel = nil
    carla.name = "Carla B."
    say("view model deallocated: \(weakViewModel == nil); renaming Carla redrew nothing")

    print("\nThe end. Next: read README.md, then run `swift test`.")
}

tour()
