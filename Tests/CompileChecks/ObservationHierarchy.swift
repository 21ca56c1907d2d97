// expect: builds
// Classes Observable without declaring it, which no macro can see: subclasses (of a migrated class,
// of an `@Observable` one, generic, main-actor, with `@Observed` alone or the class attribute) and a
// class conforming through a protocol of its own. Each reports to the registrar its conformances
// choose; subclasses that are not Observable get one that does nothing.
import ObservableCore
import Observation

@KeyValueObservable
class Entity: Observable {
    var age = 0
}

@KeyValueObservable
class Person: Entity {
    var name = ""
}

final class Student: Person {
    @Observed var school = ""
}

@Observable class AppleModel {
    var title = ""
}

@KeyValueObservable
final class Migrated: AppleModel {
    var subtitle = ""
}

@KeyValueObservable
class Box<Value>: Entity {
    var value: Value
    init(_ value: Value) { self.value = value }
}

@MainActor
@KeyValueObservable
class Screen: Observable {
    var title = ""
}

@MainActor
@KeyValueObservable
final class DetailScreen: Screen {
    var detail = ""
}

protocol Document: Observable {}

@KeyValueObservable
final class Note: Document, Sendable {
    let id = 0
}

class Plain {}

@KeyValueObservable
final class NotObservable: Plain {
    var count = 0
}

func use() {
    let student = Student()
    withObservationTracking {
        _ = student.school
        _ = student.name
        _ = student.age
    } onChange: {
    }
    student.school = "x"
    Migrated().subtitle = "y"
    Box(1).value += 1
    NotObservable().count += 1
    _ = Note()
}

@MainActor func useScreens() {
    DetailScreen().detail = "d"
}
