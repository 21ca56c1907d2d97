// Design.md's walks, traced: `Benchmarks --walk` runs each walk once inside a function of its own,
// whose execution `.ci/walk-check.py` records under callgrind, line by line, to list the files of
// Sources/ObservableCore the walk runs code of; it compares them with Design.md's lists.
import ObservableCore

/// What a walk does; its state is made before the traced function runs.
private final class WalkedPerson: KeyValueObservable {
    @Observed var name = ""
    @Observed var address: WalkedAddress?
}

private final class WalkedAddress: KeyValueObservable {
    @Observed var city = ""
}

/// "A set with one observer": `person.name = "x"`, observed with the default options.
@inline(never)
func observableCoreWalkSet(_ person: AnyObject, _ value: String) {
    (person as! WalkedPerson).name = value
}

/// "Registering `\.address?.city`": an observation of that path on a class that has been observed
/// through it before, as every registration but the first is.
@inline(never)
func observableCoreWalkLaterNestedRegistration(_ person: AnyObject) -> ObservationToken {
    (person as! WalkedPerson).observe(\.address?.city) { _, _ in }
}

/// "The first registration of a path on a class": the first observation of that path on its class.
@inline(never)
func observableCoreWalkNestedRegistration(_ person: AnyObject) -> ObservationToken {
    (person as! WalkedPerson).observe(\.address?.city) { _, _ in }
}

func runWalks() {
    let person = WalkedPerson()
    person.address = WalkedAddress()
    var heard = 0
    let token = person.observe(\.name) { _, _ in heard += 1 }
    // The first set allocates what later sets reuse; the walk is a later one.
    person.name = "first"
    observableCoreWalkSet(person, "walked")
    let path = observableCoreWalkNestedRegistration(person)
    let laterPath = observableCoreWalkLaterNestedRegistration(person)
    print("walks\tset heard \(heard)\tpath active \(path.isActive && laterPath.isActive)")
    withExtendedLifetime((token, path, laterPath)) {}
}
