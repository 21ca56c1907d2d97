import ObservableCore
import Observation
import Testing

// Swift's own Observation test suite, `test/stdlib/Observation/Observable.swift` in swiftlang/swift,
// with its models migrated as the README says: `@Observable` becomes `@KeyValueObservable` and the
// class declares `Observable` (a subclass inherits it, and cannot restate it), `@ObservationIgnored`
// becomes `@Unobserved`. Every assertion is kept, in the same order.

@usableFromInline
@inline(never)
func _blackHole<T>(_ value: T) {}

enum ObservableSuite {
    @KeyValueObservable
    class ContainsNothing: Observable {}

    @KeyValueObservable
    class ContainsWeak: Observable {
        weak var obj: AnyObject? = nil
    }

    @KeyValueObservable
    public class PublicContainsWeak: Observable {
        public weak var obj: AnyObject? = nil
    }

    @KeyValueObservable
    class ContainsUnowned: Observable {
        unowned var obj: AnyObject? = nil
    }

    @KeyValueObservable
    class ContainsIUO: Observable {
        var obj: Int! = nil
    }

    class NonObservable {

    }

    @KeyValueObservable
    class InheritsFromNonObservable: NonObservable, Observable {

    }

    protocol NonObservableProtocol {

    }

    @KeyValueObservable
    class ConformsToNonObservableProtocol: NonObservableProtocol, Observable {

    }

    struct NonObservableContainer {
        @KeyValueObservable
        class ObservableContents: Observable {
            var field: Int = 3
        }
    }

    // `@unchecked`: a class with a mutable stored property cannot be plainly `Sendable` in Swift 6
    // mode, with `@Observable` (the suite runs in Swift 5 mode), this macro or neither.
    @KeyValueObservable
    final class SendableClass: Observable, @unchecked Sendable {
        var field: Int = 3
    }

    @KeyValueObservable
    class CodableClass: Observable, Codable {
        var field: Int = 3
    }

    @KeyValueObservable
    final class HashableClass: Observable {
        var field: Int = 3
    }

    @KeyValueObservable
    class ImplementsAccessAndMutation: Observable {
        var field = 3
        let accessCalled: (PartialKeyPath<ImplementsAccessAndMutation>) -> Void
        let withMutationCalled: (PartialKeyPath<ImplementsAccessAndMutation>) -> Void

        init(
            accessCalled: @escaping (PartialKeyPath<ImplementsAccessAndMutation>) -> Void,
            withMutationCalled: @escaping (PartialKeyPath<ImplementsAccessAndMutation>) -> Void
        ) {
            self.accessCalled = accessCalled
            self.withMutationCalled = withMutationCalled
        }

        internal func access<Member>(
            keyPath: KeyPath<ImplementsAccessAndMutation, Member>
        ) {
            accessCalled(keyPath)
            _$observationRegistrar.access(self, keyPath: keyPath)
        }

        internal func withMutation<Member, T>(
            keyPath: KeyPath<ImplementsAccessAndMutation, Member>,
            _ mutation: () throws -> T
        ) rethrows -> T {
            withMutationCalled(keyPath)
            return try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
        }
    }

    @KeyValueObservable
    class HasIgnoredProperty: Observable {
        var field = 3
        @Unobserved var ignored = 4
    }

    @KeyValueObservable
    class Entity: Observable {
        var age: Int = 0
    }

    @KeyValueObservable
    class Person: Entity {
        var firstName = ""
        var lastName = ""

        var friends = [Person]()

        var fullName: String { firstName + " " + lastName }
    }

    @KeyValueObservable
    class MiddleNamePerson: Person {
        var middleName = ""

        override var fullName: String { firstName + " " + middleName + " " + lastName }
    }

    @KeyValueObservable
    class IsolatedClass: Observable {
        @MainActor var test = "hello"
    }

    @MainActor
    @KeyValueObservable
    class IsolatedInstance: Observable {
        var test = "hello"
    }

    @KeyValueObservable
    class ClassHasExistingConformance: Observable {}

    protocol Intermediary: Observable {}

    @KeyValueObservable
    class HasIntermediaryConformance: Intermediary {}

    class CapturedState<State>: @unchecked Sendable {
        var state: State

        init(state: State) {
            self.state = state
        }
    }
}

extension ObservableSuite.HashableClass: Hashable {
    static func == (lhs: ObservableSuite.HashableClass, rhs: ObservableSuite.HashableClass) -> Bool {
        lhs.field == rhs.field
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(field)
    }
}

@Suite("Swift's Observable.swift suite, models migrated")
@MainActor
struct ObservableSuiteTests {
    typealias MiddleNamePerson = ObservableSuite.MiddleNamePerson
    typealias CapturedState = ObservableSuite.CapturedState

    @Test("unobserved value changes")
    func unobservedValueChanges() {
        let test = MiddleNamePerson()
        for i in 0..<100 {
            test.firstName = "\(i)"
        }
        #expect(test.firstName == "99")
    }

    @Test("tracking changes")
    func trackingChanges() {
        let changed = CapturedState(state: false)

        let test = MiddleNamePerson()
        withObservationTracking {
            _blackHole(test.firstName)
        } onChange: {
            changed.state = true
        }

        test.firstName = "c"
        #expect(changed.state == true)
        changed.state = false
        test.firstName = "c"
        #expect(changed.state == false)
    }

    @Test("conformance")
    func conformance() {
        func testConformance<O: Observable>(_ o: O) -> Bool {
            return true
        }

        func testConformance<O>(_ o: O) -> Bool {
            return false
        }

        let test = ObservableSuite.Person()
        #expect(testConformance(test) == true)
    }

    @Test("tracking nonchanged")
    func trackingNonchanged() {
        let changed = CapturedState(state: false)

        let test = MiddleNamePerson()
        withObservationTracking {
            _blackHole(test.lastName)
        } onChange: {
            changed.state = true
        }

        test.firstName = "c"
        #expect(changed.state == false)
    }

    @Test("tracking computed")
    func trackingComputed() {
        let changed = CapturedState(state: false)

        let test = MiddleNamePerson()
        withObservationTracking {
            _blackHole(test.fullName)
        } onChange: {
            changed.state = true
        }

        test.middleName = "c"
        #expect(changed.state == true)
        changed.state = false
        test.middleName = "c"
        #expect(changed.state == false)
    }

    @Test("graph changes")
    func graphChanges() {
        let changed = CapturedState(state: false)

        let test = MiddleNamePerson()
        let friend = MiddleNamePerson()
        test.friends.append(friend)
        withObservationTracking {
            _blackHole(test.friends.first?.fullName)
        } onChange: {
            changed.state = true
        }

        test.middleName = "c"
        #expect(changed.state == false)
        friend.middleName = "c"
        #expect(changed.state == true)
    }

    @Test("nesting")
    func nesting() {
        let changedOuter = CapturedState(state: false)
        let changedInner = CapturedState(state: false)

        let test = MiddleNamePerson()
        withObservationTracking {
            withObservationTracking {
                _blackHole(test.firstName)
            } onChange: {
                changedInner.state = true
            }
        } onChange: {
            changedOuter.state = true
        }

        test.firstName = "c"
        #expect(changedInner.state == true)
        #expect(changedOuter.state == true)
        changedOuter.state = false
        test.firstName = "c"
        #expect(changedOuter.state == false)
    }

    @Test("access and mutation")
    func accessAndMutation() {
        let accessKeyPath = CapturedState<PartialKeyPath<ObservableSuite.ImplementsAccessAndMutation>?>(state: nil)
        let mutationKeyPath = CapturedState<PartialKeyPath<ObservableSuite.ImplementsAccessAndMutation>?>(state: nil)
        let test = ObservableSuite.ImplementsAccessAndMutation { keyPath in
            accessKeyPath.state = keyPath
        } withMutationCalled: { keyPath in
            mutationKeyPath.state = keyPath
        }

        #expect(accessKeyPath.state == nil)
        _blackHole(test.field)
        #expect(accessKeyPath.state == \.field)
        #expect(mutationKeyPath.state == nil)
        accessKeyPath.state = nil
        test.field = 123
        #expect(accessKeyPath.state == nil)
        #expect(mutationKeyPath.state == \.field)
    }

    @Test("ignores no change")
    func ignoresNoChange() {
        let changed = CapturedState(state: false)

        let test = ObservableSuite.HasIgnoredProperty()
        withObservationTracking {
            _blackHole(test.ignored)
        } onChange: {
            changed.state = true
        }

        test.ignored = 122112
        #expect(changed.state == false)
        changed.state = false
        test.field = 3429
        #expect(changed.state == false)
    }

    @Test("ignores change")
    func ignoresChange() {
        let changed = CapturedState(state: false)

        let test = ObservableSuite.HasIgnoredProperty()
        withObservationTracking {
            _blackHole(test.ignored)
            _blackHole(test.field)
        } onChange: {
            changed.state = true
        }

        test.ignored = 122112
        #expect(changed.state == false)
        changed.state = false
        test.field = 3429
        #expect(changed.state == true)
    }

    @Test("isolated class")
    func isolatedClass() {
        let changed = CapturedState(state: false)

        let test = ObservableSuite.IsolatedClass()
        withObservationTracking {
            _blackHole(test.test)
        } onChange: {
            changed.state = true
        }

        test.test = "c"
        #expect(changed.state == true)
        changed.state = false
        test.test = "c"
        #expect(changed.state == false)
    }

    // Beyond the suite: each model it only compiles is used once, and the shapes it names but does not
    // track (the inherited conformance, the refining protocol, the main-actor class) are tracked.

    @Test("every model of the suite reports a set to Observation, and keeps the value")
    func everyModelReports() {
        func reports(_ read: () -> Void, after write: () -> Void) -> Bool {
            let changed = CapturedState(state: false)
            withObservationTracking(read) { changed.state = true }
            write()
            return changed.state
        }
        let object = ObservableSuite.NonObservable()
        let weak = ObservableSuite.ContainsWeak()
        #expect(reports({ _blackHole(weak.obj) }, after: { weak.obj = object }))
        #expect(weak.obj === object)
        let publicWeak = ObservableSuite.PublicContainsWeak()
        #expect(reports({ _blackHole(publicWeak.obj) }, after: { publicWeak.obj = object }))
        let unowned = ObservableSuite.ContainsUnowned()
        #expect(reports({ _blackHole(unowned.obj) }, after: { unowned.obj = object }))
        #expect(unowned.obj === object)
        let iuo = ObservableSuite.ContainsIUO()
        #expect(reports({ _blackHole(iuo.obj) }, after: { iuo.obj = 4 }))
        #expect(iuo.obj == 4)
        let contents = ObservableSuite.NonObservableContainer.ObservableContents()
        #expect(reports({ _blackHole(contents.field) }, after: { contents.field = 4 }))
        let sendable = ObservableSuite.SendableClass()
        #expect(reports({ _blackHole(sendable.field) }, after: { sendable.field = 4 }))
        let codable = ObservableSuite.CodableClass()
        #expect(reports({ _blackHole(codable.field) }, after: { codable.field = 4 }))
        let hashable = ObservableSuite.HashableClass()
        #expect(reports({ _blackHole(hashable.field) }, after: { hashable.field = 4 }))
        #expect(hashable != ObservableSuite.HashableClass())
        let entity = ObservableSuite.Entity()
        #expect(reports({ _blackHole(entity.age) }, after: { entity.age = 4 }))
        let person = ObservableSuite.MiddleNamePerson()
        #expect(reports({ _blackHole(person.age) }, after: { person.age = 4 }))
        #expect(!reports({ _blackHole(person.age) }, after: { person.lastName = "x" }))
        let instance = ObservableSuite.IsolatedInstance()
        #expect(reports({ _blackHole(instance.test) }, after: { instance.test = "c" }))
        _ = (ObservableSuite.ContainsNothing(), ObservableSuite.InheritsFromNonObservable())
        _ = (ObservableSuite.ConformsToNonObservableProtocol(), ObservableSuite.ClassHasExistingConformance())
        _ = ObservableSuite.HasIntermediaryConformance()
    }

    @Test("a class conforming through a protocol of its own reports its properties")
    func refiningProtocol() {
        let note = RefiningNote()
        let changed = CapturedState(state: 0)
        withObservationTracking {
            _blackHole(note.text)
        } onChange: {
            changed.state += 1
        }
        note.text = "a"
        #expect(changed.state == 1)
        withObservationTracking {
            _blackHole(note.text)
        } onChange: {
            changed.state += 1
        }
        note.text += "b"  // in place, through _modify
        #expect(changed.state == 2 && note.text == "ab")
    }
}

protocol RefiningDocument: Observable {}

@KeyValueObservable
final class RefiningNote: RefiningDocument {
    var text = ""
}
