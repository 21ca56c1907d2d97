import ObservableCore
import Testing

/// Every access level a property can be declared with, each set by a method of the class (the test
/// reaches the private ones only through it).
@KeyValueObservable
private class Vault: KeyValueObservable {
    @Observed var plain = 0
    @Observed public var open = 0
    @Observed package var shared = 0
    @Observed private(set) var readable = 0
    @Observed fileprivate(set) var alsoReadable = 0
    @Observed private var secret = 0
    @Observed fileprivate var fileSecret = 0
    @Observed(stringKey: true) private var optedIn = 0
    @Observed(stringKey: false) var optedOut = 0
    @Unobserved private var hiddenPlain = 0
    @Unobserved var unobserved = 0

    /// Sets every property to `value`, in declaration order.
    func setAll(_ value: Int) {
        plain = value
        open = value
        shared = value
        readable = value
        alsoReadable = value
        secret = value
        fileSecret = value
        optedIn = value
        optedOut = value
        hiddenPlain = value
        unobserved = value
    }

    /// A typed observation of a private property, made where it is visible.
    func observeSecret(_ handler: @escaping (Int) -> Void) -> ObservationToken {
        observe(\.secret, options: [.new]) { _, change in handler(change.newValue!) }
    }
}

@KeyValueObservable
private final class SubVault: Vault {
    @Observed var extra = 0
    @Observed private var subSecret = 0
    func setSubclassOnes(_ value: Int) {
        extra = value
        subSecret = value
    }
}

@KeyValueObservable
private final class KeyedLedger {
    var total = 0
    private var cache = 0
    @Observed(stringKey: true) private var note = ""
    func set(total: Int, cache: Int, note: String) {
        self.total = total
        self.cache = cache
        self.note = note
    }
}

@KeyValueObservable
private final class Holder: KeyValueObservable {
    @Observed var vault = Vault()
    @Observed private var privateVault = Vault()
}

private final class VaultView {
    lazy var observations = ObservationController(observer: self)
}

/// The keys a string key path reaches on `Vault`, in declaration order, and keys it refuses.
private let reachableKeys = ["plain", "open", "shared", "readable", "alsoReadable", "optedIn"]
private let refusedKeys = [
    "secret", "fileSecret", "optedOut", "hiddenPlain", "unobserved", "missing", "_plain", "_$plain", "_secret",
    "_$secret", "$secret", "_$$secret", "$plain",
]

@Suite("String keys respect access control")
struct StringKeyAccessTests {
    @Test("a key reaches internal and wider properties, private(set) ones and those opted in, and hears each set")
    func reachable() throws {
        let vault = Vault()
        var heard: [String] = []
        let tokens = try reachableKeys.map { key in
            try vault.observe(keyPath: key, options: [.new]) { _, change in
                heard.append("\(change.keyPath)=\(change.newValue(as: Int.self)!)")
            }
        }
        vault.setAll(7)
        #expect(heard == reachableKeys.map { "\($0)=7" })
        withExtendedLifetime(tokens) {}
    }

    @Test("a refused key throws exactly what a missing key throws", arguments: refusedKeys)
    func refusedKey(key: String) {
        let vault = Vault()
        var calls = 0
        #expect(throws: StringKeyPathError(reason: .unknownKey, key: key, typeName: "Vault", path: key)) {
            _ = try vault.observe(keyPath: key) { _, _ in calls += 1 }
        }
        vault.setAll(1)
        #expect(calls == 0)
    }

    @Test("a hidden property's error reads as a missing one's, but for the name")
    func sameDescription() throws {
        func description(_ key: String) -> String? {
            do {
                _ = try Vault().observe(keyPath: key) { _, _ in }
                return nil
            } catch {
                return error.description.replacingOccurrences(of: key, with: "KEY")
            }
        }
        let missing = try #require(description("missing"))
        #expect(description("secret") == missing)
        #expect(description("hiddenPlain") == missing)
        #expect(description("unobserved") == missing)
        #expect(missing == "\"KEY\": Vault has no property 'KEY' that a string key reaches")
    }

    @Test("a subclass instance: inherited properties by their own access, the subclass's by theirs")
    func subclass() throws {
        let vault = SubVault()
        var heard: [String] = []
        let tokens = try (reachableKeys + ["extra"]).map { key in
            try vault.observe(keyPath: key, options: [.new]) { _, change in heard.append(change.keyPath) }
        }
        for key in refusedKeys + ["subSecret"] {
            #expect(throws: StringKeyPathError(reason: .unknownKey, key: key, typeName: "SubVault", path: key)) {
                _ = try vault.observe(keyPath: key) { _, _ in heard.append("refused \(key)") }
            }
        }
        vault.setAll(2)
        vault.setSubclassOnes(3)
        #expect(heard == reachableKeys + ["extra"])
        withExtendedLifetime(tokens) {}
    }

    @Test("through a base-typed reference, the dynamic type's properties, refused ones as well")
    func baseTypedReference() {
        let vault: Vault = SubVault()
        #expect(
            throws: StringKeyPathError(reason: .unknownKey, key: "subSecret", typeName: "SubVault", path: "subSecret")
        ) {
            _ = try vault.observe(keyPath: "subSecret") { _, _ in }
        }
        #expect(throws: Never.self) { _ = try vault.observe(keyPath: "extra") { _, _ in } }
    }

    @Test("@KeyValueObservable: a plain private property is hidden, one opted in is reached")
    func classAttribute() throws {
        let ledger = KeyedLedger()
        var heard: [String] = []
        let total = try ledger.observe(keyPath: "total", options: [.new]) { _, change in heard.append(change.keyPath) }
        let note = try ledger.observe(keyPath: "note", options: [.new]) { _, change in heard.append(change.keyPath) }
        #expect(throws: StringKeyPathError(reason: .unknownKey, key: "cache", typeName: "KeyedLedger", path: "cache")) {
            _ = try ledger.observe(keyPath: "cache") { _, _ in heard.append("cache") }
        }
        ledger.set(total: 1, cache: 2, note: "n")
        #expect(heard == ["total", "note"])
        withExtendedLifetime((total, note)) {}
    }

    @Test("a path through a hidden property is refused at that component; through a visible one it reaches on")
    func nestedPath() throws {
        let holder = Holder()
        #expect(
            throws: StringKeyPathError(
                reason: .unknownKey, key: "privateVault", typeName: "Holder", path: "privateVault.plain")
        ) {
            _ = try holder.observe(keyPath: "privateVault.plain") { _, _ in }
        }
        #expect(
            throws: StringKeyPathError(reason: .unknownKey, key: "secret", typeName: "Vault", path: "vault.secret")
        ) {
            _ = try holder.observe(keyPath: "vault.secret") { _, _ in }
        }
        var values: [Int] = []
        let token = try holder.observe(keyPath: "vault.readable", options: [.new]) { _, change in
            values.append(change.newValue(as: Int.self)!)
        }
        holder.vault.setAll(4)
        holder.vault = Vault()
        #expect(values == [4, 0])
        withExtendedLifetime(token) {}
    }

    @Test("the controller's string key paths refuse and accept the same keys")
    func controller() throws {
        let view = VaultView()
        let vault = Vault()
        var heard: [String] = []
        for key in refusedKeys {
            #expect(throws: StringKeyPathError(reason: .unknownKey, key: key, typeName: "Vault", path: key)) {
                try view.observations.observe(vault, keyPath: key) { _, _, _ in heard.append("refused \(key)") }
            }
            #expect(!view.observations.isObserving(vault, keyPath: key))
        }
        for key in reachableKeys {
            try view.observations.observe(vault, keyPath: key, options: [.new]) { _, _, change in
                heard.append(change.keyPath)
            }
        }
        vault.setAll(5)
        #expect(heard == reachableKeys)
        #expect(view.observations.observedObjects.count == 1)
    }

    @Test("what is not a string key still observes a hidden property: a typed key path and the whole object")
    func notStringKeys() {
        let vault = Vault()
        var typed: [Int] = []
        let token = vault.observeSecret { typed.append($0) }
        var names: [String] = []
        let whole = vault.observeProperties { _, change in names.append(change.name) }
        vault.setAll(6)
        #expect(typed == [6])
        #expect(
            names == [
                "plain", "open", "shared", "readable", "alsoReadable", "secret", "fileSecret", "optedIn", "optedOut",
            ])
        withExtendedLifetime((token, whole)) {}
    }
}
