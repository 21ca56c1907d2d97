import ObservableCore
import Testing

private final class Owner {}

@KeyValueObservable
private final class Leaf: KeyValueObservable {
    @Observed var name = ""
}

/// Holds an `unowned` reference it never reads once its object is gone (legal Swift), declared
/// before the property a string path goes through.
@KeyValueObservable
private final class Branch: KeyValueObservable {
    unowned let owner: Owner
    @Observed unowned var keeper: Owner
    @Observed var leaf: Leaf? = Leaf()
    init(owner: Owner) {
        self.owner = owner
        self.keeper = owner
    }
}

@Suite("String key paths beside unowned references")
struct StringKeyPathUnownedTests {
    @Test("a path through a class whose unowned fields outlived their objects reads only its own fields")
    func danglingUnownedNotRead() throws {
        var owner: Owner? = Owner()
        let branch = Branch(owner: owner!)
        owner = nil
        var values: [String?] = []
        let token = try branch.observe(keyPath: "leaf.name", options: [.initial, .new]) { _, change in
            values.append(change.newValue(as: String.self))
        }
        branch.leaf?.name = "a"
        branch.leaf = Leaf()
        branch.leaf = nil
        #expect(values == ["", "a", "", nil])
        withExtendedLifetime(token) {}
    }
}
