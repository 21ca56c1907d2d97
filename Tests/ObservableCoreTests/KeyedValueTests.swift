import ObservableCore
import Testing

private struct Point: Equatable { var x: Int, y: Int }
private struct Packed: Equatable { var a: Int32, b: Int16 }
private struct Wide: Equatable { var a: Int, b: Int, c: Int }
private enum Mood: Equatable { case calm, busy }

/// A property of each kind a string key path's change keeps: bitwise-copyable values of 1, 6, 8 and
/// 16 bytes (kept as bytes), strings (kept as themselves), a wider struct, an array, an object,
/// optionals and `Any` (kept in a box).
@KeyValueObservable
private final class Gauges: KeyValueObservable, CustomStringConvertible {
    @Observed var count = 0
    @Observed var ratio = 0.5
    @Observed var flag = false
    @Observed var byte: UInt8 = 0
    @Observed var mood = Mood.calm
    @Observed var packed = Packed(a: 0, b: 0)
    @Observed var point = Point(x: 0, y: 0)
    @Observed var wide = Wide(a: 0, b: 0, c: 0)
    @Observed var label = ""
    @Observed var nickname: String?
    @Observed var list: [Int] = []
    @Observed var maybe: Int?
    @Observed var twice: Int??
    @Observed var anything: Any = 0
    @Observed var describable: any CustomStringConvertible = 0
    @Observed var other: Gauges?

    var description: String { "Gauges(count: \(count))" }
}

/// The changes of one string key path of `gauges`, as they arrive.
private func changes(
    of key: String, _ gauges: Gauges, options: ObservationOptions = [.old, .new], while body: () -> Void
)
    throws -> [KeyedChange]
{
    var changes: [KeyedChange] = []
    let token = try gauges.observe(keyPath: key, options: options) { _, change in changes.append(change) }
    body()
    token.cancel()
    return changes
}

/// Checks that `change`'s values read as `Value` give what `as?` gives, and `expected`.
private func expectValues<Value: Equatable>(
    _ change: KeyedChange, as _: Value.Type, old: Value?, new: Value?, sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(change.oldValue(as: Value.self) == old, sourceLocation: sourceLocation)
    #expect(change.newValue(as: Value.self) == new, sourceLocation: sourceLocation)
    #expect(change.oldValue as? Value == old, sourceLocation: sourceLocation)
    #expect(change.newValue as? Value == new, sourceLocation: sourceLocation)
}

/// Checks that reading `change`'s values as a type they are not gives `nil`, as `as?` does, and as
/// `Any` or a protocol they conform to gives them.
private func expectOtherReads(
    _ change: KeyedChange, description: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(change.newValue(as: Int64.self) == nil, sourceLocation: sourceLocation)
    #expect(change.newValue(as: [String].self) == nil, sourceLocation: sourceLocation)
    #expect(change.newValue(as: Any.self).map { "\($0)" } == description, sourceLocation: sourceLocation)
    #expect(
        change.newValue(as: (any CustomStringConvertible).self)?.description
            == (change.newValue as? any CustomStringConvertible)?.description, sourceLocation: sourceLocation)
}

@Suite("The values of a string key path's change, read as their type, as Any and as other types")
struct KeyedValueTests {
    @Test("bitwise-copyable values of 1 to 16 bytes read back exactly, as Any and as other types")
    func bytes() throws {
        let gauges = Gauges()
        let count = try changes(of: "count", gauges) { gauges.count = 42 }
        #expect(count.count == 1)
        expectValues(count[0], as: Int.self, old: 0, new: 42)
        expectOtherReads(count[0], description: "42")
        #expect(count[0].newValue(as: Double.self) == nil)
        #expect(count[0].newValue(as: Int?.self) == .some(42))

        let ratio = try changes(of: "ratio", gauges) { gauges.ratio = -2.25 }
        expectValues(ratio[0], as: Double.self, old: 0.5, new: -2.25)
        expectOtherReads(ratio[0], description: "-2.25")
        #expect(ratio[0].newValue(as: Int.self) == nil)

        let flag = try changes(of: "flag", gauges) { gauges.flag = true }
        expectValues(flag[0], as: Bool.self, old: false, new: true)
        let byte = try changes(of: "byte", gauges) { gauges.byte = 255 }
        expectValues(byte[0], as: UInt8.self, old: 0, new: 255)
        #expect(byte[0].newValue(as: Int.self) == nil)
        let mood = try changes(of: "mood", gauges) { gauges.mood = .busy }
        expectValues(mood[0], as: Mood.self, old: .calm, new: .busy)
        let packed = try changes(of: "packed", gauges) { gauges.packed = Packed(a: -7, b: 300) }
        expectValues(packed[0], as: Packed.self, old: Packed(a: 0, b: 0), new: Packed(a: -7, b: 300))
        let point = try changes(of: "point", gauges) { gauges.point = Point(x: .min, y: .max) }
        expectValues(point[0], as: Point.self, old: Point(x: 0, y: 0), new: Point(x: .min, y: .max))
        #expect(point[0].newValue(as: Wide.self) == nil)
    }

    @Test("other values read back as they were: wider structs, strings, arrays, objects and Any")
    func boxed() throws {
        let gauges = Gauges()
        let wide = try changes(of: "wide", gauges) { gauges.wide = Wide(a: 1, b: 2, c: 3) }
        expectValues(wide[0], as: Wide.self, old: Wide(a: 0, b: 0, c: 0), new: Wide(a: 1, b: 2, c: 3))
        let label = try changes(of: "label", gauges) { gauges.label = "a label longer than fifteen bytes" }
        expectValues(label[0], as: String.self, old: "", new: "a label longer than fifteen bytes")
        expectOtherReads(label[0], description: "a label longer than fifteen bytes")
        #expect(label[0].newValue(as: Substring.self) == nil)
        #expect(label[0].newValue(as: String?.self) == .some("a label longer than fifteen bytes"))
        let nickname = try changes(of: "nickname", gauges) {
            gauges.nickname = "Ada"
            gauges.nickname = nil
        }
        #expect(nickname.count == 2)
        expectValues(nickname[0], as: String.self, old: nil, new: "Ada")
        expectValues(nickname[1], as: String.self, old: "Ada", new: nil)
        #expect(nickname[0].newValue(as: Int.self) == nil)
        let list = try changes(of: "list", gauges) { gauges.list = [1, 2] }
        expectValues(list[0], as: [Int].self, old: [], new: [1, 2])
        #expect(list[0].newValue(as: [String].self) == nil)

        let other = Gauges()
        let object = try changes(of: "other", gauges) { gauges.other = other }
        #expect(object[0].oldValue(as: Gauges.self) == nil)
        #expect(object[0].newValue(as: Gauges.self) === other)
        #expect(object[0].newValue(as: AnyObject.self) === other)
        #expect(object[0].newValue(as: Int.self) == nil)

        let anything = try changes(of: "anything", gauges) {
            gauges.anything = "text"
            gauges.anything = 7
        }
        #expect(anything.count == 2)
        expectValues(anything[0], as: Int.self, old: 0, new: nil)
        expectValues(anything[0], as: String.self, old: nil, new: "text")
        expectValues(anything[1], as: Int.self, old: nil, new: 7)
        let described = Gauges()
        let describable = try changes(of: "describable", gauges) {
            gauges.describable = "text"
            gauges.describable = described
        }
        #expect(describable.count == 2)
        expectValues(describable[0], as: Int.self, old: 0, new: nil)
        expectValues(describable[0], as: String.self, old: nil, new: "text")
        #expect(describable[1].oldValue(as: String.self) == "text")
        #expect(describable[1].newValue(as: Gauges.self) === described)
        #expect(describable[1].newValue as? Gauges === described)
        #expect(describable[1].newValue(as: (any CustomStringConvertible).self)?.description == described.description)
    }

    @Test("optionals are unwrapped, nil gives nil, and values not requested are nil")
    func optionalsAndOptions() throws {
        let gauges = Gauges()
        let maybe = try changes(of: "maybe", gauges) {
            gauges.maybe = 5
            gauges.maybe = nil
        }
        #expect(maybe.count == 2)
        expectValues(maybe[0], as: Int.self, old: nil, new: 5)
        expectValues(maybe[1], as: Int.self, old: 5, new: nil)
        #expect(maybe[0].oldValue == nil)
        #expect(maybe[0].newValue(as: Int?.self) == .some(5))

        let twice = try changes(of: "twice", gauges) { gauges.twice = .some(.some(9)) }
        expectValues(twice[0], as: Int.self, old: nil, new: 9)

        let onlyNew = try changes(of: "count", gauges, options: [.new]) { gauges.count = 3 }
        expectValues(onlyNew[0], as: Int.self, old: nil, new: 3)
        let prior = try changes(of: "count", gauges, options: [.old, .new, .prior]) { gauges.count = 4 }
        #expect(prior.map(\.isPrior) == [true, false])
        expectValues(prior[0], as: Int.self, old: 3, new: nil)
        expectValues(prior[1], as: Int.self, old: 3, new: 4)
        let initial = try changes(of: "count", gauges, options: [.initial, .new]) {}
        #expect(initial.count == 1)
        expectValues(initial[0], as: Int.self, old: nil, new: 4)
    }

    @Test("a nested path's values are kept the same way")
    func nested() throws {
        let gauges = Gauges()
        let other = Gauges()
        let seen = try changes(of: "other.count", gauges) {
            gauges.other = other
            other.count = 8
            gauges.other = nil
        }
        #expect(seen.count == 3)
        expectValues(seen[0], as: Int.self, old: nil, new: 0)
        expectValues(seen[1], as: Int.self, old: 0, new: 8)
        expectValues(seen[2], as: Int.self, old: 8, new: nil)
        #expect(seen.allSatisfy { $0.keyPath == "other.count" })
    }

    @Test("a change kept after its observation, its object and its string are gone still reads whole")
    func keptChange() throws {
        var kept: [KeyedChange] = []
        do {
            let gauges = Gauges()
            let key = ["la", "bel"].joined()
            let token = try gauges.observe(keyPath: key) { _, change in kept.append(change) }
            gauges.label = String(repeating: "x", count: 40)
            gauges.count = 1
            token.cancel()
            let numbers = try gauges.observe(keyPath: "point") { _, change in kept.append(change) }
            gauges.point = Point(x: 3, y: 4)
            numbers.cancel()
            let boxed = try gauges.observe(keyPath: "list") { _, change in kept.append(change) }
            gauges.list = Array(0..<100)
            boxed.cancel()
        }
        #expect(kept.count == 3)
        #expect(kept.map(\.keyPath) == ["label", "point", "list"])
        #expect(kept[2].newValue(as: [Int].self) == Array(0..<100))
        #expect(kept[2].newValue as? [Int] == Array(0..<100))
        #expect(kept[0].newValue(as: String.self) == String(repeating: "x", count: 40))
        #expect(kept[1].newValue(as: Point.self) == Point(x: 3, y: 4))
        let (old, new) = (String(reflecting: Point(x: 0, y: 0)), String(reflecting: Point(x: 3, y: 4)))
        #expect(kept[1].description == "KeyedChange(setting, \"point\", old: \(old), new: \(new))")
    }
}
