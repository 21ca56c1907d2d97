import SwiftSyntaxMacrosGenericTestSupport
import Testing

@Suite("@Observed expansion")
struct ObservedExpansionTests {
    // How to read these expectations: the test harness prints the user's own `willSet`/`didSet` still
    // on the property, and drops the property's initial value when no `init` accessor is generated.
    // The compiler ignores both there (the storage has the initial value and the observers); the
    // behaviour tests pin that down (`ObservedPropertyTests`: observers run once per set, an initial
    // value is evaluated once).

    @Test("a typed property without an initial value gets an init accessor")
    func typedWithoutInitializer() {
        assertObservedExpansion(
            """
            final class Person {
                @Observed var name: String
            }
            """,
            expandedSource: """
                final class Person {
                    var name: String {
                \(observedAccessors("name"))
                    }

                    private var _name: String

                    private let _$name: ObservableCore.ObservationSlot_ForCodableAddKeyValueObservableAndDeclareCodableOnTheClass = ObservableCore.ObservationSlot()
                }
                """
        )
    }

    @Test(
        "an initial value without a type annotation is kept, inferred for the storage, and an init accessor still lets an initializer assign the property first"
    )
    func inferredFromInitializer() {
        assertObservedExpansion(
            """
            final class Person {
                @Observed var age = 0
            }
            """,
            expandedSource: """
                final class Person {
                    var age {
                \(observedAccessors("age"))
                    }

                    private var _age = 0

                    private let _$age: ObservableCore.ObservationSlot_ForCodableAddKeyValueObservableAndDeclareCodableOnTheClass = ObservableCore.ObservationSlot()
                }
                """
        )
    }

    @Test("the storage keeps the type and initial value as written inside, spaced as the formatter spaces them")
    func storageSpacing() {
        assertObservedExpansion(
            """
            final class Person {
                @Observed var scores:[String:Int]=[
                    "a": 1,  // first
                ]
            }
            """,
            expandedSource: """
                final class Person {
                    var scores:[String:Int]{
                \(observedAccessors("scores"))
                    }

                    private var _scores: [String:Int] = [
                            "a": 1,  // first
                        ]

                    private let _$scores: ObservableCore.ObservationSlot_ForCodableAddKeyValueObservableAndDeclareCodableOnTheClass = ObservableCore.ObservationSlot()
                }
                """
        )
    }

    @Test("comments around the attribute, type and initial value stay out of the storage, as trimming drops them")
    func storageWithComments() {
        assertObservedExpansion(
            """
            @KeyValueObservable
            final class Person {
                @Observed /* a */ var age /* b */ : /* c */ Int /* d */ = /* e */ 3
                var name /* b */ : /* c */ [String /* g */ : Int] /* d */ = /* e */ [:]
            }
            """,
            expandedSource: """
                final class Person {
                    /* a */ var age /* b */ : /* c */ Int /* d */ {
                \(observedAccessors("age"))
                    }

                    private nonisolated(unsafe) var _age: Int = 3

                    private let _$age: ObservableCore.ObservationSlot_ForCodableAddKeyValueObservableAndDeclareCodableOnTheClass = ObservableCore.ObservationSlot()
                    var name /* b */ : /* c */ [String /* g */ : Int] /* d */ {
                \(observedAccessors("name", uniqueSuffix: "0"))
                    }

                    private nonisolated(unsafe) var _name: [String /* g */ : Int] = [:]

                    private let _$name: ObservableCore.ObservationSlot_ForCodableAddKeyValueObservableAndDeclareCodableOnTheClass = ObservableCore.ObservationSlot()

                    nonisolated static var _$observedProperties: ObservableCore.ObservedPropertyList {
                        ObservableCore.ObservedPropertyList(
                            Person.self, inheriting: nil,
                            [
                                .init("age", { (object: Person) in object._age }),
                                .init("name", { (object: Person) in object._name })
                            ]
                        ) { object, slots in
                            slots.append(object._$age)
                            slots.append(object._$name)
                        }
                    }
                }

                extension Person: ObservableCore.KeyValueObservable, ObservableCore.ObservedPropertyListing {
                }
                """
        )
    }

    @Test("an optional without an initial value")
    func optionalWithoutInitializer() {
        assertObservedExpansion(
            """
            final class Person {
                @Observed var address: Address?
            }
            """,
            expandedSource: """
                final class Person {
                    var address: Address? {
                \(observedAccessors("address"))
                    }

                    private var _address: Address?

                    private let _$address: ObservableCore.ObservationSlot_ForCodableAddKeyValueObservableAndDeclareCodableOnTheClass = ObservableCore.ObservationSlot()
                }
                """
        )
    }

    @Test("weak and unowned references keep their ownership on the storage, and say so to tracking")
    func ownership() {
        assertObservedExpansion(
            """
            final class Node {
                @Observed weak var parent: Node?
                @Observed unowned(unsafe) var owner: Node
            }
            """,
            expandedSource: """
                final class Node {
                    weak var parent: Node? {
                \(observedAccessors("parent", storesReference: true))
                    }

                    private weak var _parent: Node?

                    private let _$parent: ObservableCore.ObservationSlot_ForCodableAddKeyValueObservableAndDeclareCodableOnTheClass = ObservableCore.ObservationSlot()
                    unowned(unsafe) var owner: Node {
                \(observedAccessors("owner", uniqueSuffix: "0", storesReference: true))
                    }

                    private unowned(unsafe) var _owner: Node

                    private let _$owner: ObservableCore.ObservationSlot_ForCodableAddKeyValueObservableAndDeclareCodableOnTheClass = ObservableCore.ObservationSlot()
                }
                """
        )
    }

    @Test("access levels stay on the property; storage and slot are private")
    func accessLevels() {
        assertObservedExpansion(
            """
            open class Account {
                @Observed public private(set) var balance: Int = 0
                @Observed open var title: String = ""
            }
            """,
            expandedSource: """
                open class Account {
                    public private(set) var balance: Int {
                \(observedAccessors("balance"))
                    }

                    private var _balance: Int = 0

                    private let _$balance: ObservableCore.ObservationSlot_ForCodableAddKeyValueObservableAndDeclareCodableOnTheClass = ObservableCore.ObservationSlot()
                    open var title: String {
                \(observedAccessors("title", uniqueSuffix: "0"))
                    }

                    private var _title: String = ""

                    private let _$title: ObservableCore.ObservationSlot_ForCodableAddKeyValueObservableAndDeclareCodableOnTheClass = ObservableCore.ObservationSlot()
                }
                """
        )
    }

    @Test(
        "in a generic class, a property whose type is (or may be) built from a generic parameter finds collection kinds at run time"
    )
    func genericAndMainActor() {
        assertObservedExpansion(
            """
            @MainActor final class Box<T> {
                @Observed var value: T
                @Observed var count: Int = 0
                @Observed var inferred = [T]()
            }
            """,
            expandedSource: """
                @MainActor final class Box<T> {
                    var value: T {
                \(observedAccessors("value", genericType: true))
                    }

                    private var _value: T

                    private let _$value: ObservableCore.ObservationSlot_ForCodableAddKeyValueObservableAndDeclareCodableOnTheClass = ObservableCore.ObservationSlot()
                    var count: Int {
                \(observedAccessors("count", uniqueSuffix: "0"))
                    }

                    private var _count: Int = 0

                    private let _$count: ObservableCore.ObservationSlot_ForCodableAddKeyValueObservableAndDeclareCodableOnTheClass = ObservableCore.ObservationSlot()
                    var inferred {
                \(observedAccessors("inferred", uniqueSuffix: "1", genericType: true))
                    }

                    private var _inferred = [T]()

                    private let _$inferred: ObservableCore.ObservationSlot_ForCodableAddKeyValueObservableAndDeclareCodableOnTheClass = ObservableCore.ObservationSlot()
                }
                """
        )
    }

    @Test("a backticked name keeps its backticks in the key path only")
    func backtickedName() {
        assertObservedExpansion(
            """
            final class Settings {
                @Observed var `default`: Bool = false
            }
            """,
            expandedSource: """
                final class Settings {
                    var `default`: Bool {
                        @storageRestrictions(initializes: _default)
                        init(initialValue) {
                            _default = initialValue
                        }
                        get {
                            if ObservableCore.ObservationSlot.isTracking {
                                _$default.access(self) {
                                    (\\.`default`, chained: \\.?.`default`, stored: { $0._default })
                                }
                            }
                            return _default
                        }
                        set {
                            guard _$default.isObserved else {
                                _default = newValue
                                return
                            }
                            let __macro_local_6changefMu_ = _$default.willSet(self, _default) {
                                \\.`default`
                            }
                            _default = newValue
                            _$default.didSet(self, __macro_local_6changefMu_, _default)
                        }
                        _modify {
                            let __macro_local_6changefMu_ = _$default.willSetIfObserved(self, _default) {
                                \\.`default`
                            }
                            defer {
                                _$default.didMutate(self, __macro_local_6changefMu_, _default)
                            }
                            yield &_default
                        }
                    }

                    private var _default: Bool = false

                    private let _$default: ObservableCore.ObservationSlot_ForCodableAddKeyValueObservableAndDeclareCodableOnTheClass = ObservableCore.ObservationSlot()
                }
                """
        )
    }

    @Test("willSet/didSet move to the storage, where the property's own name means the storage")
    func observersMoveToStorage() {
        assertObservedExpansion(
            """
            final class Gauge {
                @Observed var level: Int = 0 {
                    willSet(next) { print(level, self.level, next, other.level) }
                    didSet { if level > 10 { self.level = 10 } }
                }
            }
            """,
            expandedSource: """
                final class Gauge {
                    var level: Int {
                        willSet(next) { print(level, self.level, next, other.level) }
                        didSet { if level > 10 { self.level = 10 } }
                \(observedAccessors("level", appendedToObservers: true))
                    }

                    private var _level: Int = 0 {
                        willSet(next) {
                            print(_level, self._level, next, other.level)
                        }
                        didSet {
                            if _level > 10 {
                                self._level = 10
                            }
                        }
                    }

                    private let _$level: ObservableCore.ObservationSlot_ForCodableAddKeyValueObservableAndDeclareCodableOnTheClass = ObservableCore.ObservationSlot()
                }
                """
        )
    }

    @Test(
        "in a class @KeyValueObservable lists, the setter runs willSet/didSet around the storage, which is nonisolated(unsafe)"
    )
    func listedObserversRunInSetter() {
        assertObservedExpansion(
            """
            @KeyValueObservable
            final class Gauge {
                var level: Int = 0 {
                    willSet(next) { print(level, next) }
                    didSet { if level > 10 { self.level = 10 } }
                }
            }
            """,
            expandedSource: """
                final class Gauge {
                    var level: Int {
                        willSet(next) { print(level, next) }
                        didSet { if level > 10 { self.level = 10 } }
                        @storageRestrictions(initializes: _level)
                        init(initialValue) {
                            _level = initialValue
                        }

                        get {
                            if ObservableCore.ObservationSlot.isTracking {
                                _$level.access(self) {
                                    (\\.level, chained: \\.?.level, stored: { $0._level })
                                }
                            }
                            return _level
                        }

                        set {
                            guard _$level.isObserved else {
                                ObservableCore.ObservationSlot.store(newValue, write: { _level = $0 }, willSet: { next in print(_level, next) }, didSet: { if _level > 10 { self._level = 10 } })
                                return
                            }
                            let __macro_local_6changefMu_ = _$level.willSet(self, _level) {
                                \\.level
                            }
                            ObservableCore.ObservationSlot.store(newValue, write: { _level = $0 }, willSet: { next in print(_level, next) }, didSet: { if _level > 10 { self._level = 10 } })
                            _$level.didSet(self, __macro_local_6changefMu_, _level)
                        }

                        _modify {
                            let __macro_local_6changefMu_ = _$level.willSetIfObserved(self, _level) {
                                \\.level
                            }
                            defer {
                                _$level.didMutate(self, __macro_local_6changefMu_, _level)
                            }
                            var __macro_local_5valuefMu_ = _level
                            yield &__macro_local_5valuefMu_
                            ObservableCore.ObservationSlot.store(__macro_local_5valuefMu_, write: { _level = $0 }, willSet: { next in print(_level, next) }, didSet: { if _level > 10 { self._level = 10 } })
                        }
                    }

                    private nonisolated(unsafe) var _level: Int = 0

                    private let _$level: ObservableCore.ObservationSlot_ForCodableAddKeyValueObservableAndDeclareCodableOnTheClass = ObservableCore.ObservationSlot()

                    nonisolated static var _$observedProperties: ObservableCore.ObservedPropertyList {
                        ObservableCore.ObservedPropertyList(
                            Gauge.self, inheriting: nil,
                            [
                                .init("level", { (object: Gauge) in object._level })
                            ]
                        ) { object, slots in
                            slots.append(object._$level)
                        }
                    }
                }

                extension Gauge: ObservableCore.KeyValueObservable, ObservableCore.ObservedPropertyListing {
                }
                """
        )
    }

    @Test("an observer body that declares its own 'level' is moved untouched")
    func shadowedNameIsNotRewritten() {
        assertObservedExpansion(
            """
            final class Gauge {
                @Observed var level: Int = 0 {
                    didSet { let level = oldValue; print(level) }
                }
            }
            """,
            expandedSource: """
                final class Gauge {
                    var level: Int {
                        didSet { let level = oldValue; print(level) }
                \(observedAccessors("level", appendedToObservers: true))
                    }

                    private var _level: Int = 0 {
                        didSet {
                            let level = oldValue;
                            print(level)
                        }
                    }

                    private let _$level: ObservableCore.ObservationSlot_ForCodableAddKeyValueObservableAndDeclareCodableOnTheClass = ObservableCore.ObservationSlot()
                }
                """
        )
    }

    @Test("inside its own observers, exactly the references Swift resolves to the storage are redirected")
    func observerReferencesFollowSwiftsScoping() {
        // Redirected: bare `x` where no local `x` is in scope (conditions, `else`, `guard`'s
        // `else`), `self.x` always, `if let x` (which reads the property), `defer`, `&self.x`, a
        // capture list's initialiser. Left: `willSet(x)`'s parameter, nested functions and closures
        // (Swift goes through the accessors there), key path components, locals bound by `if`,
        // `guard`, `for`, `case` and `catch`, `other.x`.
        assertObservedExpansion(
            """
            final class Gauge {
                @Observed var x: Int = 0 {
                    willSet(x) { print(x, self.x) }
                    didSet {
                        func helper(_ x: Int) -> Int { x + self.x }
                        let k = [1].map { x in x + 1 }
                        pending.append { self.x = 99 }
                        let paths = (\\.x, \\Gauge.x)
                        if let x { print(x) }
                        if let y = Optional(x), case let .some(x) = Optional(y) { print(x) } else { print(x) }
                        guard let x = Optional(x) else { x = 1; return }
                        print(x, self.x, other.x)
                        for x in [x] { print(x) }
                        switch x { case let x where x > 0: print(x); case x: print(x); default: break }
                        do { try f(&x) } catch { print(x) }
                        defer { self.x = 10 }
                        clamp(&self.x)
                        let capture = { [v = x] in v }
                    }
                }
            }
            """,
            expandedSource: """
                final class Gauge {
                    var x: Int {
                        willSet(x) { print(x, self.x) }
                        didSet {
                            func helper(_ x: Int) -> Int { x + self.x }
                            let k = [1].map { x in x + 1 }
                            pending.append { self.x = 99 }
                            let paths = (\\.x, \\Gauge.x)
                            if let x { print(x) }
                            if let y = Optional(x), case let .some(x) = Optional(y) { print(x) } else { print(x) }
                            guard let x = Optional(x) else { x = 1; return }
                            print(x, self.x, other.x)
                            for x in [x] { print(x) }
                            switch x { case let x where x > 0: print(x); case x: print(x); default: break }
                            do { try f(&x) } catch { print(x) }
                            defer { self.x = 10 }
                            clamp(&self.x)
                            let capture = { [v = x] in v }
                        }
                \(observedAccessors("x", appendedToObservers: true))
                    }

                    private var _x: Int = 0 {
                        willSet(x) {
                            print(x, self._x)
                        }
                        didSet {
                                    func helper(_ x: Int) -> Int {
                                        x + self.x
                                    }
                                    let k = [1].map { x in
                                        x + 1
                                    }
                                    pending.append {
                                        self.x = 99
                                    }
                                    let paths = (\\.x, \\Gauge.x)
                                    if let x = _x {
                                        print(x)
                                    }
                                    if let y = Optional(_x), case let .some(x) = Optional(y) {
                                        print(x)
                                    } else {
                                        print(_x)
                                    }
                                    guard let x = Optional(_x) else {
                                        _x = 1;
                                        return
                                    }
                                    print(x, self._x, other.x)
                                    for x in [x] {
                                        print(x)
                                    }
                                    switch x {
                                    case let x where x > 0:
                                        print(x);
                                    case x:
                                        print(x);
                                    default:
                                        break
                                    }
                                    do {
                                        try f(&x)
                                    } catch {
                                        print(x)
                                    }
                                    defer {
                                        self._x = 10
                                    }
                                    clamp(&self._x)
                                    let capture = { [v = x] in
                                        v
                                    }
                                }
                    }

                    private let _$x: ObservableCore.ObservationSlot_ForCodableAddKeyValueObservableAndDeclareCodableOnTheClass = ObservableCore.ObservationSlot()
                }
                """
        )
    }

    @Test(
        "a main-actor property of a nonisolated class with an initial value has no init accessor, so the implicit initializer stays nonisolated"
    )
    func mainActorPropertyInitialValue() {
        assertObservedExpansion(
            """
            final class Caption {
                @Observed @MainActor var title = ""
                @Observed @MainActor var subtitle: String
            }
            @MainActor final class Screen {
                @Observed @MainActor var title = ""
            }
            """,
            expandedSource: """
                final class Caption {
                    @MainActor var title {
                \(observedAccessors("title", initAccessor: false))
                    }

                    private var _title = ""

                    private let _$title: ObservableCore.ObservationSlot_ForCodableAddKeyValueObservableAndDeclareCodableOnTheClass = ObservableCore.ObservationSlot()
                    @MainActor var subtitle: String {
                \(observedAccessors("subtitle", uniqueSuffix: "0"))
                    }

                    private var _subtitle: String

                    private let _$subtitle: ObservableCore.ObservationSlot_ForCodableAddKeyValueObservableAndDeclareCodableOnTheClass = ObservableCore.ObservationSlot()
                }
                @MainActor final class Screen {
                    @MainActor var title {
                \(observedAccessors("title", uniqueSuffix: "1"))
                    }

                    private var _title = ""

                    private let _$title: ObservableCore.ObservationSlot_ForCodableAddKeyValueObservableAndDeclareCodableOnTheClass = ObservableCore.ObservationSlot()
                }
                """
        )
    }

    @Test("every spelling of self as the base is self: (self).x and self.self.x are the storage, a copy of self is not")
    func selfSpellingsInObservers() {
        assertObservedExpansion(
            """
            final class Gauge {
                @Observed var x: Int = 0 {
                    didSet {
                        (self).x = 1
                        self.self.x = 2
                        ((self)).self.x += 1
                        (self.self).x.self = 0
                        let other = self
                        other.x = 3
                        (other).x = 4
                    }
                }
            }
            """,
            expandedSource: """
                final class Gauge {
                    var x: Int {
                        didSet {
                            (self).x = 1
                            self.self.x = 2
                            ((self)).self.x += 1
                            (self.self).x.self = 0
                            let other = self
                            other.x = 3
                            (other).x = 4
                        }
                \(observedAccessors("x", appendedToObservers: true))
                    }

                    private var _x: Int = 0 {
                        didSet {
                                    (self)._x = 1
                                    self.self._x = 2
                                    ((self)).self._x += 1
                                    (self.self)._x.self = 0
                                    let other = self
                                    other.x = 3
                                    (other).x = 4
                                }
                    }

                    private let _$x: ObservableCore.ObservationSlot_ForCodableAddKeyValueObservableAndDeclareCodableOnTheClass = ObservableCore.ObservationSlot()
                }
                """
        )
    }

    @Test(
        "a property named like an observer's implicit parameter: in didSet 'oldValue' is the parameter, in willSet the property"
    )
    func implicitParameterShadowing() {
        assertObservedExpansion(
            """
            final class Odd {
                @Observed var oldValue: Int = 0 {
                    didSet { print(oldValue, self.oldValue) }
                    willSet { print(oldValue, newValue) }
                }
            }
            """,
            expandedSource: """
                final class Odd {
                    var oldValue: Int {
                        didSet { print(oldValue, self.oldValue) }
                        willSet { print(oldValue, newValue) }
                \(observedAccessors("oldValue", appendedToObservers: true))
                    }

                    private var _oldValue: Int = 0 {
                        didSet {
                            print(oldValue, self._oldValue)
                        }
                        willSet {
                            print(_oldValue, newValue)
                        }
                    }

                    private let _$oldValue: ObservableCore.ObservationSlot_ForCodableAddKeyValueObservableAndDeclareCodableOnTheClass = ObservableCore.ObservationSlot()
                }
                """
        )
    }

    @Test(
        "types declared inside the observers move to a namespace beside the property, their uses renamed by scope (swiftlang/swift#88174)"
    )
    func localTypesAreHoisted() {
        assertObservedExpansion(
            """
            final class Gauge {
                @Observed var level: Int = 0 {
                    didSet {
                        struct Helper { static func make() -> Helper { Helper() } }
                        let a: Helper = .make(), b = Helper.make()
                        if level > 1 { struct Helper {}; _ = Helper() }
                        _ = [1].map { _ in Helper() }
                        print(a, b, other.Helper, level)
                    }
                    willSet { struct Helper {}; _ = Helper() }
                }
            }
            """,
            expandedSource: """
                final class Gauge {
                    var level: Int {
                        didSet {
                            struct Helper { static func make() -> Helper { Helper() } 
                }
                            let a: Helper = .make(), b = Helper.make()
                            if level > 1 { struct Helper {}; _ = Helper() }
                            _ = [1].map { _ in Helper() }
                            print(a, b, other.Helper, level)
                        }
                        willSet { struct Helper {}; _ = Helper() }
                \(observedAccessors("level", appendedToObservers: true))
                    }

                    private var _level: Int = 0 {
                        didSet {
                                    let a: __$level.didSet_Helper = .make(), b = __$level.didSet_Helper.make()
                                    if _level > 1 {
                                        _ = __$level.didSet_Helper_2()
                                    }
                                    _ = [1].map { _ in
                                        __$level.didSet_Helper()
                                    }
                                    print(a, b, other.Helper, _level)
                                }
                        willSet {
                            _ = __$level.willSet_Helper()
                        }
                    }

                    private let _$level: ObservableCore.ObservationSlot_ForCodableAddKeyValueObservableAndDeclareCodableOnTheClass = ObservableCore.ObservationSlot()

                    private enum __$level {
                        struct didSet_Helper {
                            static func make() -> __$level.didSet_Helper {
                                __$level.didSet_Helper()
                            }
                        }
                        struct didSet_Helper_2 {
                        }
                        struct willSet_Helper {
                        }
                    }
                }
                """
        )
    }

    @Test("@available is copied to the storage; other attributes are not")
    func availabilityIsCopied() {
        assertObservedExpansion(
            """
            final class Feature {
                @available(*, deprecated) @Observed var flag: Bool = false
            }
            """,
            expandedSource: """
                final class Feature {
                    @available(*, deprecated) var flag: Bool {
                \(observedAccessors("flag"))
                    }

                    @available(*, deprecated) private var _flag: Bool = false

                    private let _$flag: ObservableCore.ObservationSlot_ForCodableAddKeyValueObservableAndDeclareCodableOnTheClass = ObservableCore.ObservationSlot()
                }
                """
        )
    }

    @Test("skipsEqualValues checks for a duplicate on the slow path and leaves in-place mutation to get and set")
    func skipsEqualValues() {
        assertObservedExpansion(
            """
            final class Person {
                @Observed(skipsEqualValues: true) var name = ""
            }
            """,
            expandedSource: """
                final class Person {
                    var name {
                        @storageRestrictions(initializes: _name)
                        init(initialValue) {
                            _name = initialValue
                        }
                        get {
                            if ObservableCore.ObservationSlot.isTracking {
                                _$name.access(self) {
                                    (\\.name, chained: \\.?.name, stored: { $0._name })
                                }
                            }
                            return _name
                        }
                        set {
                            guard _$name.isObserved, !ObservableCore.ObservationSlot.isDuplicate(_name, newValue) else {
                                _name = newValue
                                return
                            }
                            let __macro_local_6changefMu_ = _$name.willSet(self, _name) {
                                \\.name
                            }
                            _name = newValue
                            _$name.didSet(self, __macro_local_6changefMu_, _name)
                        }
                    }

                    private var _name = ""

                    private let _$name: ObservableCore.ObservationSlot_ForCodableAddKeyValueObservableAndDeclareCodableOnTheClass = ObservableCore.ObservationSlot()
                }
                """
        )
    }

    @Test("notifiesAutomatically: false keeps tracking and stores without notifying")
    func manualNotification() {
        assertObservedExpansion(
            """
            final class Account {
                @Observed(notifiesAutomatically: false) var balance: Int
            }
            """,
            expandedSource: """
                final class Account {
                    var balance: Int {
                        @storageRestrictions(initializes: _balance)
                        init(initialValue) {
                            _balance = initialValue
                        }
                        get {
                            if ObservableCore.ObservationSlot.isTracking {
                                _$balance.access(self) {
                                    (\\.balance, chained: \\.?.balance, stored: { $0._balance })
                                }
                            }
                            return _balance
                        }
                        set {
                            _balance = newValue
                        }
                        _modify {
                            yield &_balance
                        }
                    }

                    private var _balance: Int

                    private let _$balance: ObservableCore.ObservationSlot_ForCodableAddKeyValueObservableAndDeclareCodableOnTheClass = ObservableCore.ObservationSlot()
                }
                """
        )
    }

    @Test(
        "an override wraps the superclass's property, and reports to the registrar the subclass's conformances choose (nothing unless it is Observable)"
    )
    func overrideWrapsSuper() {
        assertObservedExpansion(
            """
            final class Label: View {
                @Observed override var text: String
            }
            """,
            expandedSource: """
                final class Label: View {
                    override var text: String {
                        get {
                            _$observationRegistrar_text.access(self, keyPath: \\.text)
                            if ObservableCore.ObservationSlot.isTracking {
                                _$text.access(self) {
                                    (\\.text, chained: \\.?.text)
                                }
                            }
                            return super.text
                        }
                        set {
                            guard _$text.isObserved else {
                                _$observationRegistrar_text.withMutation(of: self, keyPath: \\.text) {
                                    super.text = newValue
                                }
                                return
                            }
                            _$observationRegistrar_text.willSet(self, keyPath: \\.text)
                            defer {
                                _$observationRegistrar_text.didSet(self, keyPath: \\.text)
                            }
                            let __macro_local_6changefMu_ = _$text.willSet(self, super.text) {
                                \\.text
                            }
                            super.text = newValue
                            _$text.didSet(self, __macro_local_6changefMu_, super.text)
                        }
                    }

                    private let _$text: ObservableCore.ObservationSlot_ForCodableAddKeyValueObservableAndDeclareCodableOnTheClass = ObservableCore.ObservationSlot()

                    private let _$observationRegistrar_text = ObservableCore._$chooseObservationRegistrar(for: Label.self)
                }
                """
        )
    }

    @Test(
        "@KeyValueObservable declares the storage of the properties in its braces; one inside #if keeps @Observed's peers"
    )
    func classAttributeAndConditionalMembers() {
        // The class's members leave `note` alone. (The harness does not expand member attributes
        // inside `#if`; the compiler does, giving `note` `@Observed`: `ClassAttributeTests` observes it.)
        assertObservedExpansion(
            """
            @KeyValueObservable
            final class Person {
                var name = ""
                #if DEBUG
                var note = ""
                #endif
            }
            """,
            expandedSource: """
                final class Person {
                    var name {
                \(observedAccessors("name"))
                    }
                    #if DEBUG
                    var note = ""
                    #endif

                    private nonisolated(unsafe) var _name = ""

                    private let _$name: ObservableCore.ObservationSlot_ForCodableAddKeyValueObservableAndDeclareCodableOnTheClass = ObservableCore.ObservationSlot()

                    nonisolated static var _$observedProperties: ObservableCore.ObservedPropertyList {
                        ObservableCore.ObservedPropertyList(
                            Person.self, inheriting: nil,
                            [
                                .init("name", { (object: Person) in object._name })
                            ]
                        ) { object, slots in
                            slots.append(object._$name)
                        }
                    }
                }

                extension Person: ObservableCore.KeyValueObservable, ObservableCore.ObservedPropertyListing {
                }
                """
        )
    }

    @Test("@KeyValueObservable marks eligible stored vars, leaves the rest, and adds the conformance")
    func classAttribute() {
        assertObservedExpansion(
            """
            @KeyValueObservable
            final class Person {
                var name = ""
                @Unobserved var cache = 0
                let id = 1
                static var count = 0
                lazy var label = name
                var summary: String { name }
            }
            """,
            expandedSource: """
                final class Person {
                    var name {
                \(observedAccessors("name"))
                    }
                    var cache = 0
                    let id = 1
                    static var count = 0
                    lazy var label = name
                    var summary: String { name }

                    private nonisolated(unsafe) var _name = ""

                    private let _$name: ObservableCore.ObservationSlot_ForCodableAddKeyValueObservableAndDeclareCodableOnTheClass = ObservableCore.ObservationSlot()

                    nonisolated static var _$observedProperties: ObservableCore.ObservedPropertyList {
                        ObservableCore.ObservedPropertyList(
                            Person.self, inheriting: nil,
                            [
                                .init("name", { (object: Person) in object._name })
                            ]
                        ) { object, slots in
                            slots.append(object._$name)
                        }
                    }
                }

                extension Person: ObservableCore.KeyValueObservable, ObservableCore.ObservedPropertyListing {
                }
                """
        )
    }
}
