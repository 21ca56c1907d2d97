import ObservableCore

// A plain class and its `@Observed` twin with the same body, character for character, apart from
// the attribute: each property's `willSet`/`didSet` is one shape of user code that the macro must
// leave meaning what it means in plain Swift (`ObserverSemanticsTests`). Keep the two in step.

/// What both twins offer the tests.
protocol ObserverShapes: AnyObject {
    var log: [String] { get set }
    var pending: [() -> Void] { get set }
    var nestedFunctionParameter: Int { get set }
    var closureParameter: Int { get set }
    var unconditionalStore: Int { get set }
    var storeLater: Int { get set }
    var localShadow: Int { get set }
    var inoutHelper: Int { get set }
    var deferredStore: Int { get set }
    var nestedType: Int { get set }
    var shorthand: Int? { get set }
    var namedParameter: Int { get set }
    var willSetStore: Int { get set }
    var selfSpellings: Int { get set }
}

func clampToTen(_ value: inout Int) { value = min(value, 10) }

final class PlainShapes: ObserverShapes {
    var log: [String] = []
    var pending: [() -> Void] = []
    var nestedFunctionParameter = 7 {
        didSet {
            func doubled(_ nestedFunctionParameter: Int) -> Int { nestedFunctionParameter * 2 }
            log.append("nestedFunctionParameter \(oldValue)->\(nestedFunctionParameter) doubled(5)=\(doubled(5))")
        }
    }
    var closureParameter = 0 {
        didSet {
            let sum = [1, 2].reduce(0) { closureParameter, next in closureParameter + next }
            log.append("closureParameter \(oldValue)->\(closureParameter) sum=\(sum)")
            if closureParameter > 10 { self.closureParameter = 10 }
        }
    }
    var unconditionalStore = 0 {
        didSet {
            _ = [3].map { unconditionalStore in unconditionalStore }
            log.append("unconditionalStore \(oldValue)->\(unconditionalStore)")
            self.unconditionalStore = max(unconditionalStore, 0)
        }
    }
    var storeLater = 0 {
        didSet {
            log.append("storeLater \(oldValue)->\(storeLater)")
            if storeLater < 90 { pending.append { self.storeLater = 99 } }
        }
    }
    var localShadow = 0 {
        didSet {
            if localShadow > 10 { localShadow = 10 }
            let localShadow = -1
            log.append("localShadow local=\(localShadow) stored=\(self.localShadow)")
        }
    }
    var inoutHelper = 0 {
        didSet {
            clampToTen(&inoutHelper)
            log.append("inoutHelper \(oldValue)->\(inoutHelper)")
        }
    }
    var deferredStore = 0 {
        didSet {
            defer { if deferredStore > 10 { deferredStore = 10 } }
            log.append("deferredStore \(oldValue)->\(deferredStore)")
        }
    }
    var nestedType = 0 {
        didSet {
            struct Helper {
                var nestedType = 3
                func read() -> Int { nestedType }
                static func make() -> Helper { Helper(nestedType: 4) }
            }
            typealias Alias = Helper
            let helpers: [Alias] = [Helper(), .make()]
            log.append("nestedType \(oldValue)->\(nestedType) helpers=\(helpers.map { $0.read() })")
            if nestedType > 10 { nestedType = 10 }
        }
    }
    var shorthand: Int? = nil {
        didSet {
            if let shorthand { log.append("shorthand \(shorthand)") }
            guard let shorthand else { return }
            if shorthand > 10 { self.shorthand = 10 }
        }
    }
    var namedParameter = 0 {
        willSet(namedParameter) { log.append("namedParameter will \(self.namedParameter)->\(namedParameter)") }
        didSet(previous) {
            log.append("namedParameter did \(previous)->\(namedParameter)")
            for namedParameter in [1] { log.append("loop \(namedParameter)") }
            if namedParameter > 10 { namedParameter = 10 }
        }
    }
    var willSetStore = 0 {
        willSet {
            log.append("willSetStore will \(willSetStore)->\(newValue)")
            if newValue < 0 { pending.append { self.willSetStore = 0 } }
        }
        didSet { log.append("willSetStore did \(oldValue)->\(willSetStore)") }
    }
    var selfSpellings = 0 {
        didSet {
            log.append("selfSpellings \(oldValue)->\(selfSpellings)")
            if selfSpellings > 10 { (self).selfSpellings = 10 }
            if selfSpellings < -10 { self.self.selfSpellings = -10 }
            if selfSpellings == 7 { ((self)).self.selfSpellings += 1 }
            if selfSpellings == 3 { (self.self).selfSpellings.self -= 1 }
        }
    }
}

@KeyValueObservable
final class ObservedShapes: ObserverShapes, KeyValueObservable {
    @Unobserved var log: [String] = []
    @Unobserved var pending: [() -> Void] = []
    @Observed var nestedFunctionParameter = 7 {
        didSet {
            func doubled(_ nestedFunctionParameter: Int) -> Int { nestedFunctionParameter * 2 }
            log.append("nestedFunctionParameter \(oldValue)->\(nestedFunctionParameter) doubled(5)=\(doubled(5))")
        }
    }
    @Observed var closureParameter = 0 {
        didSet {
            let sum = [1, 2].reduce(0) { closureParameter, next in closureParameter + next }
            log.append("closureParameter \(oldValue)->\(closureParameter) sum=\(sum)")
            if closureParameter > 10 { self.closureParameter = 10 }
        }
    }
    @Observed var unconditionalStore = 0 {
        didSet {
            _ = [3].map { unconditionalStore in unconditionalStore }
            log.append("unconditionalStore \(oldValue)->\(unconditionalStore)")
            self.unconditionalStore = max(unconditionalStore, 0)
        }
    }
    @Observed var storeLater = 0 {
        didSet {
            log.append("storeLater \(oldValue)->\(storeLater)")
            if storeLater < 90 { pending.append { self.storeLater = 99 } }
        }
    }
    @Observed var localShadow = 0 {
        didSet {
            if localShadow > 10 { localShadow = 10 }
            let localShadow = -1
            log.append("localShadow local=\(localShadow) stored=\(self.localShadow)")
        }
    }
    @Observed var inoutHelper = 0 {
        didSet {
            clampToTen(&inoutHelper)
            log.append("inoutHelper \(oldValue)->\(inoutHelper)")
        }
    }
    @Observed var deferredStore = 0 {
        didSet {
            defer { if deferredStore > 10 { deferredStore = 10 } }
            log.append("deferredStore \(oldValue)->\(deferredStore)")
        }
    }
    @Observed var nestedType = 0 {
        didSet {
            struct Helper {
                var nestedType = 3
                func read() -> Int { nestedType }
                static func make() -> Helper { Helper(nestedType: 4) }
            }
            typealias Alias = Helper
            let helpers: [Alias] = [Helper(), .make()]
            log.append("nestedType \(oldValue)->\(nestedType) helpers=\(helpers.map { $0.read() })")
            if nestedType > 10 { nestedType = 10 }
        }
    }
    @Observed var shorthand: Int? = nil {
        didSet {
            if let shorthand { log.append("shorthand \(shorthand)") }
            guard let shorthand else { return }
            if shorthand > 10 { self.shorthand = 10 }
        }
    }
    @Observed var namedParameter = 0 {
        willSet(namedParameter) { log.append("namedParameter will \(self.namedParameter)->\(namedParameter)") }
        didSet(previous) {
            log.append("namedParameter did \(previous)->\(namedParameter)")
            for namedParameter in [1] { log.append("loop \(namedParameter)") }
            if namedParameter > 10 { namedParameter = 10 }
        }
    }
    @Observed var willSetStore = 0 {
        willSet {
            log.append("willSetStore will \(willSetStore)->\(newValue)")
            if newValue < 0 { pending.append { self.willSetStore = 0 } }
        }
        didSet { log.append("willSetStore did \(oldValue)->\(willSetStore)") }
    }
    @Observed var selfSpellings = 0 {
        didSet {
            log.append("selfSpellings \(oldValue)->\(selfSpellings)")
            if selfSpellings > 10 { (self).selfSpellings = 10 }
            if selfSpellings < -10 { self.self.selfSpellings = -10 }
            if selfSpellings == 7 { ((self)).self.selfSpellings += 1 }
            if selfSpellings == 3 { (self.self).selfSpellings.self -= 1 }
        }
    }
}

/// Cocoa's idiom for a property that notifies by hand from its own observers: the key path literals
/// inside them name the property, not its storage.
@KeyValueObservable
final class ManualAccount: KeyValueObservable {
    @Observed(notifiesAutomatically: false) var balance = 0 {
        willSet { willChangeValue(for: \.balance) }
        didSet { didChangeValue(for: \ManualAccount.balance) }
    }
}

/// The plain twin's body under `@KeyValueObservable`, which lists the properties: their storage is
/// `nonisolated(unsafe)` and carries no observers; the setter runs them.
@KeyValueObservable
final class ListedShapes: ObserverShapes {
    @Unobserved var log: [String] = []
    @Unobserved var pending: [() -> Void] = []
    var nestedFunctionParameter = 7 {
        didSet {
            func doubled(_ nestedFunctionParameter: Int) -> Int { nestedFunctionParameter * 2 }
            log.append("nestedFunctionParameter \(oldValue)->\(nestedFunctionParameter) doubled(5)=\(doubled(5))")
        }
    }
    var closureParameter = 0 {
        didSet {
            let sum = [1, 2].reduce(0) { closureParameter, next in closureParameter + next }
            log.append("closureParameter \(oldValue)->\(closureParameter) sum=\(sum)")
            if closureParameter > 10 { self.closureParameter = 10 }
        }
    }
    var unconditionalStore = 0 {
        didSet {
            _ = [3].map { unconditionalStore in unconditionalStore }
            log.append("unconditionalStore \(oldValue)->\(unconditionalStore)")
            self.unconditionalStore = max(unconditionalStore, 0)
        }
    }
    var storeLater = 0 {
        didSet {
            log.append("storeLater \(oldValue)->\(storeLater)")
            if storeLater < 90 { pending.append { self.storeLater = 99 } }
        }
    }
    var localShadow = 0 {
        didSet {
            if localShadow > 10 { localShadow = 10 }
            let localShadow = -1
            log.append("localShadow local=\(localShadow) stored=\(self.localShadow)")
        }
    }
    var inoutHelper = 0 {
        didSet {
            clampToTen(&inoutHelper)
            log.append("inoutHelper \(oldValue)->\(inoutHelper)")
        }
    }
    var deferredStore = 0 {
        didSet {
            defer { if deferredStore > 10 { deferredStore = 10 } }
            log.append("deferredStore \(oldValue)->\(deferredStore)")
        }
    }
    var nestedType = 0 {
        didSet {
            struct Helper {
                var nestedType = 3
                func read() -> Int { nestedType }
                static func make() -> Helper { Helper(nestedType: 4) }
            }
            typealias Alias = Helper
            let helpers: [Alias] = [Helper(), .make()]
            log.append("nestedType \(oldValue)->\(nestedType) helpers=\(helpers.map { $0.read() })")
            if nestedType > 10 { nestedType = 10 }
        }
    }
    var shorthand: Int? = nil {
        didSet {
            if let shorthand { log.append("shorthand \(shorthand)") }
            guard let shorthand else { return }
            if shorthand > 10 { self.shorthand = 10 }
        }
    }
    var namedParameter = 0 {
        willSet(namedParameter) { log.append("namedParameter will \(self.namedParameter)->\(namedParameter)") }
        didSet(previous) {
            log.append("namedParameter did \(previous)->\(namedParameter)")
            for namedParameter in [1] { log.append("loop \(namedParameter)") }
            if namedParameter > 10 { namedParameter = 10 }
        }
    }
    var willSetStore = 0 {
        willSet {
            log.append("willSetStore will \(willSetStore)->\(newValue)")
            if newValue < 0 { pending.append { self.willSetStore = 0 } }
        }
        didSet { log.append("willSetStore did \(oldValue)->\(willSetStore)") }
    }
    var selfSpellings = 0 {
        didSet {
            log.append("selfSpellings \(oldValue)->\(selfSpellings)")
            if selfSpellings > 10 { (self).selfSpellings = 10 }
            if selfSpellings < -10 { self.self.selfSpellings = -10 }
            if selfSpellings == 7 { ((self)).self.selfSpellings += 1 }
            if selfSpellings == 3 { (self.self).selfSpellings.self -= 1 }
        }
    }
}
