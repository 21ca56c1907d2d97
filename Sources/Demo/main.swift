// A guided tour of ObservableCore: run it with `swift run Demo`.
import Dispatch
import Foundation
import ObservableCore
import ObservableCoreTesting
import Observation

// `@KeyValueObservable` lists the class's properties for the features that find them by name (string
// key paths, whole objects, the observation listing); `@Observed` alone serves typed key paths.
@KeyValueObservable
final class Address: KeyValueObservable {
    @Observed var city: String
    init(city: String) { self.city = city }
}

@KeyValueObservable
final class Person: KeyValueObservable {
    @Observed var name: String
    @Observed var age = 0
    @Observed var address: Address?
    @Unobserved var nickname = ""  // not observable
    var greeting: String { "Hi, \(name) (\(age))" }
    init(name: String) { self.name = name }
}

final class Settings: KeyValueObservable {
    @Observed var showsAge = true
}

/// An app model that is saved as JSON: the class attribute writes its `Codable` conformance.
@KeyValueObservable
final class Preferences: Codable {
    var volume = 3
    var theme = "dark"
}

/// A small document for the chapter on whole objects, unsaved changes and undo.
@KeyValueObservable
final class Memo: Observable {
    var title = "Untitled"
    var body = ""
    var isPinned = false
}

/// A document whose edits travel as a JSON Patch: its classes are `Codable`, as a patch's values are.
@KeyValueObservable
final class Notebook: Codable {
    var title = ""
    var notes: [Note] = []
    init() {}
}

@KeyValueObservable
final class Note: Codable {
    var text = ""
    init(_ text: String) { self.text = text }
}

/// One model, two kinds of observers: declaring `Observable` makes every `@Observed` property
/// report to Observation too, which is what SwiftUI tracks.
final class Room: KeyValueObservable, Observable {
    @Observed var name: String
    init(name: String) { self.name = name }
}

final class Speaker: KeyValueObservable, Observable {
    @Observed var volume = 3
    @Observed var room: Room?
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

final class Playlist: KeyValueObservable {
    @Observed var songs: [String] = []
}

final class Player: KeyValueObservable {
    @Observed(skipsEqualValues: true) var status = "stopped"
}

final class Account: KeyValueObservable {
    @Observed(notifiesAutomatically: false) private(set) var balance = 0

    func apply(_ amounts: [Int]) {
        notifyingChange(of: \.balance) {  // one notification for the whole batch
            for amount in amounts { balance += amount }
        }
    }
}

/// A class from somewhere else, which knows nothing of ObservableCore.
class Label {
    var text = ""
}

final class ObservedLabel: Label, KeyValueObservable {
    @Observed override var text: String  // the superclass's property, made observable
}

@KeyValueObservable  // every stored var is @Observed …
final class Thermostat {
    var target = 20.0
    var mode = "heat"
    @Unobserved var lastReading = 0.0  // … except this one
}

/// Shown by `dump`, `Mirror` and the debugger as written: `@KeyValueObservable` writes its mirror.
@KeyValueObservable
final class Badge: CustomReflectable {
    var title = "Guest"
    var level = 1
}

/// Changed by a sensor thread and shown by a display. The app makes one thread set it at a time,
/// which is what `@unchecked Sendable` promises.
final class Sensor: KeyValueObservable, @unchecked Sendable {
    @Observed var celsius = 20
}

/// Stands for UI code: in an app it would be `@MainActor` and pass `isolation: MainActor.shared`
/// (a command-line tour has no main run loop to deliver on).
actor Display {
    private(set) var lines: [String] = []
    private var token: ObservationToken?

    func show(_ sensor: Sensor) {
        // The handler runs on this actor, whichever thread sets the sensor.
        token = sensor.observe(\.celsius, options: [.initial, .new], isolation: self) { change in
            self.lines.append("\(change.newValue!) °C")
        }
    }

    /// A set made on the actor: delivered before it returns, after any changes still on their way.
    func calibrate(_ sensor: Sensor) -> [String] {
        sensor.celsius = 0
        return lines
    }

    func stop() {
        token?.cancel()
    }
}

func say(_ line: String) { print("   \(line)") }

/// Written by the task before it signals, read by the waiting thread after the wait.
final class Outcome<Value>: @unchecked Sendable {
    var value: Value?
}

/// Runs `body` as a task and waits for it on this thread (a command-line tour has no run loop).
func waitFor<Result: Sendable>(_ body: sending @escaping () async -> Result) -> Result {
    let done = DispatchSemaphore(value: 0)
    let outcome = Outcome<Result>()
    Task {
        outcome.value = await body()
        done.signal()
    }
    done.wait()
    return outcome.value!
}
/// A value as code writes it (`"text"`, `nil`), where an empty string must show.
func quoted(_ value: Any?) -> String {
    value.map { String(reflecting: $0) } ?? "nil"
}
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

    section("An @Observed array mutated in place: what changed, and where")
    let playlist = Playlist()
    let songsToken = playlist.observe(\.songs) { _, change in
        let indexes = change.indexes.map {
            $0.ranges.map { "\($0.lowerBound)..<\($0.upperBound)" }.joined(separator: ", ")
        }
        say("\(change.kind) at \(indexes ?? "—"): \(show(change.oldValue)) → \(show(change.newValue))")
    }
    playlist.songs.append("Blue")
    playlist.songs.insert("Intro", at: 0)
    playlist.songs[1] = "Blue (live)"
    playlist.songs.remove(at: 0)
    playlist.songs = ["Encore"]
    songsToken.cancel()

    section("Skipping equal values, by choice (the default notifies every set)")
    let player = Player()
    let statusToken = player.observe(\.status) { _, change in
        say("status: \(show(change.oldValue)) → \(show(change.newValue))")
    }
    player.status = "playing"
    player.status = "playing"
    say("(set \"playing\" twice, notified once: @Observed(skipsEqualValues: true))")
    statusToken.cancel()

    section("Notifying by hand: a batch of changes sent as one")
    let account = Account()
    let balanceToken = account.observe(\.balance) { _, change in
        say("balance: \(show(change.oldValue)) → \(show(change.newValue))")
    }
    account.apply([100, -30, 5])
    balanceToken.cancel()

    section("Subclasses: observing a property a non-observable superclass declared")
    let label = ObservedLabel()
    let textToken = label.observe(\.text) { _, change in
        say("text: \(show(change.oldValue)) → \(show(change.newValue))")
    }
    let plain: Label = label
    plain.text = "set through a Label reference"
    textToken.cancel()

    section("One attribute for the whole class: @KeyValueObservable")
    let thermostat = Thermostat()
    let thermostatTokens = [
        thermostat.observe(\.target) { _, change in say("target: \(show(change.newValue))") },
        thermostat.observe(\.mode) { _, change in say("mode: \(show(change.newValue))") },
    ]
    thermostat.target = 21.5
    thermostat.mode = "cool"
    thermostat.lastReading = 19.8
    say("(lastReading is @Unobserved: setting it told nobody)")
    for token in thermostatTokens { token.cancel() }

    section("String key paths, checked before anything is observed")
    let dora = Person(name: "Dora")
    do {
        let token = try dora.observe(keyPath: "address.city", options: [.new]) { _, change in
            say("\"\(change.keyPath)\" is now \(show(change.newValue))")
        }
        dora.address = Address(city: "Lima")
        dora.address?.city = "Cusco"
        token.cancel()
        _ = try dora.observe(keyPath: "adress.city") { _, _ in }
    } catch {
        say("error: \(error)")
    }

    section("Changes as an async sequence")
    let counter = Person(name: "Eve")
    let ages = waitFor {
        var seen: [Int] = []
        for await change in counter.changes(of: \.age, options: [.initial, .new]) {
            seen.append(change.newValue!)
            if seen.count == 3 { break }  // leaving the loop ends the observation
            counter.age += 1  // buffered, then delivered by the next iteration
        }
        return seen
    }
    say("for await saw ages \(ages)")

    section("A Codable model, observed like any other")
    let preferences = Preferences()
    preferences.volume = 7
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    if let data = try? encoder.encode(preferences),
        let decoded = try? JSONDecoder().decode(Preferences.self, from: data)
    {
        say("saved as \(String(decoding: data, as: UTF8.self))")
        let themeToken = decoded.observe(\.theme) { _, change in
            say("decoded copy's theme: \(show(change.oldValue)) -> \(show(change.newValue))")
        }
        decoded.theme = "light"
        themeToken.cancel()
    }

    section("One model, two kinds of observers: KVO-style and Observation (SwiftUI's)")
    let speaker = Speaker()
    speaker.room = Room(name: "den")
    let volumeToken = speaker.observe(\.volume, options: [.old, .new]) { _, change in
        say("KVO-style: volume \(show(change.oldValue)) -> \(show(change.newValue))")
    }
    let roomToken = speaker.observe(\.room?.name, options: [.new]) { _, change in
        say("KVO-style: room name \(show(change.newValue ?? nil))")
    }
    // What SwiftUI does for a view's body: track what it reads, hear the first change (at willSet).
    withObservationTracking {
        say("a view reads volume \(speaker.volume) in \(speaker.room?.name ?? "-")")
    } onChange: {
        say("Observation: something the view read will change: SwiftUI would redraw it")
    }
    speaker.volume = 8
    speaker.room = Room(name: "hall")
    volumeToken.cancel()
    roomToken.cancel()

    section("What observes this object? And what dump shows of it")
    let watched = Person(name: "Kim")
    let watchers = [
        watched.observe(\.name) { _, _ in },
        watched.observe(\.address?.city, options: [.initial, .new]) { _, _ in },
    ]
    say(watched.observationsDescription.replacingOccurrences(of: "\n", with: "\n   "))
    for watcher in watchers { watcher.cancel() }
    var dumped = ""
    dump(Badge(), to: &dumped)
    say("dump of a Badge:\n     " + dumped.split(separator: "\n").joined(separator: "\n     "))

    section("Changes made on another thread, delivered on the observer's actor")
    let sensor = Sensor()
    let display = Display()
    waitFor { await display.show(sensor) }
    let sensorThread = DispatchGroup()
    DispatchQueue.global().async(group: sensorThread) {
        for celsius in 21...23 { sensor.celsius = celsius }  // not on the display's actor
    }
    sensorThread.wait()
    let shown = waitFor { await display.calibrate(sensor) }
    say("the display showed, in order, on its actor: \(shown.joined(separator: ", "))")
    waitFor { await display.stop() }

    section("A whole document: every change, unsaved changes, undo, redo and revert")
    let memo = Memo()
    let memoToken = memo.observeProperties { _, change in
        say("\(change.name): \(quoted(change.oldValue)) → \(quoted(change.newValue))")
    }
    let tracker = ChangeTracker(tracking: memo)
    let history = UndoHistory(recording: memo)
    memo.title = "Shopping"
    history.group(named: "Write the list") {
        memo.body = "milk"
        memo.body = "milk, eggs"  // one group; undo restores the body from before it
    }
    say("unsaved changes: \(tracker.changedPropertyNames); Undo menu: \"Undo \(history.undoActionName)\"")
    history.undo()
    say("after undo, body is \(quoted(memo.body)); can redo: \(history.canRedo)")
    history.redo()
    tracker.markSaved()
    say("saved: unsaved changes \(tracker.hasChanges)")
    memo.isPinned = true
    memo.title = "Groceries"
    say("unsaved changes: \(tracker.changes)")
    tracker.revert()  // the latest change first, through the setters: the observer above is told
    say("reverted: title \(quoted(memo.title)), pinned \(memo.isPinned), unsaved changes \(tracker.hasChanges)")
    memoToken.cancel()

    section("A document's edits as a JSON Patch: recorded on one copy, applied to another")
    do {
        let notebook = Notebook()
        // The copy a server, or a collaborator, holds: decoded from the same starting state.
        let replica = try JSONDecoder().decode(Notebook.self, from: JSONEncoder().encode(notebook))
        let journal = try JSONPatchRecorder(recording: notebook, testingOldValues: true)
        notebook.title = "Trip"
        notebook.notes.append(Note("passport"))
        notebook.notes[0].text = "passport, tickets"
        let patch = try journal.takeOperations()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let sent = String(decoding: try encoder.encode(patch), as: UTF8.self)
        say("sent: \(sent)")
        try replica.apply(JSONDecoder().decode([JSONPatchOperation].self, from: Data(sent.utf8)))
        say("the other copy: \(quoted(replica.title)), notes \(replica.notes.map(\.text))")
        // Applied again, its tests of the old values no longer hold: refused whole, nothing set.
        do {
            try replica.apply(patch)
        } catch {
            say("applied twice: refused (\(error))")
        }
    } catch {
        say("unexpected: \(error)")
    }

    section("In your tests: record the changes, assert them in one line")
    let tested = Person(name: "")
    let recorder = ObservationRecorder(tested, \.name, \.age)
    tested.name = "Kim"
    tested.age = 30
    let expected: [RecordedChange<Person>] = [
        .setting(\.name, old: "", new: "Kim"),
        .setting(\.age, old: 0, new: 30),
    ]
    say("recorded: \(recorder.changes)")
    say(
        "recorder.changes == expected: \(recorder.changes == expected)  (in a test: #expect(recorder.changes == [...]))"
    )
    var leaving: Person? = Person(name: "")
    let endToken = leaving!.observe(\.name) { _, change in
        say("leaving's name: \(show(change.newValue))")
    } onObservedDeallocated: {
        say("the observed person was deallocated: its observation ended, after its last change")
    }
    leaving!.name = "Lee"
    leaving = nil  // the token lives on; the observation ends with the object
    say("the token is active: \(endToken.isActive)")

    print("\nThe end. Next: read README.md, then run `swift test`.")
}

tour()
