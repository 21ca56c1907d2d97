import ObservableCore
import Testing

private struct Point {  // neither Equatable nor a class: in-place changes are settings
    var x = 0
}

private final class Playlist: KeyValueObservable {
    @Observed var songs: [String] = []
    @Observed var stops: [Address] = []
    @Observed fileprivate var points: [Point] = []
}

/// A change reduced to what these tests compare: kind, indexes as ranges, and the values.
private struct Mutation: Equatable, CustomStringConvertible {
    var kind: ObservedChangeKind
    var indexes: [Range<Int>]?
    var old: [String]?
    var new: [String]?

    init(_ kind: ObservedChangeKind, _ indexes: [Range<Int>]?, old: [String]? = nil, new: [String]? = nil) {
        (self.kind, self.indexes, self.old, self.new) = (kind, indexes, old, new)
    }

    init(_ change: ObservedChange<[String]>) {
        self.init(change.kind, change.indexes.map { Array($0.ranges) }, old: change.oldValue, new: change.newValue)
    }

    var description: String { "\(kind) \(indexes.map { "\($0)" } ?? "-") \(old ?? []) -> \(new ?? [])" }
}

/// Indexes as written: `[0..<1, 3..<4]`.
func rangesText(_ indexes: RangeSet<Int>) -> String {
    "[" + indexes.ranges.map { "\($0.lowerBound)..<\($0.upperBound)" }.joined(separator: ", ") + "]"
}

/// The same property with a generic type: `Box<[String]>`, `Box<[Address]>`, `Box<[Point]>`.
private final class GenericHolder<Items>: KeyValueObservable {
    @Observed var items: Items
    init(_ items: Items) { self.items = items }
}

@Suite("Collection change kinds")
struct CollectionChangeTests {
    @Test(
        "a generic property holding a collection reports the kinds and indexes a non-generic one does",
        arguments: [UInt64(5), 6, 7])
    func genericPropertyMatchesConcrete(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let playlist = Playlist()
        let generic = GenericHolder<[String]>([])
        var concrete: [Mutation] = []
        var dynamic: [Mutation] = []
        let tokens = [
            playlist.observe(\.songs) { _, change in concrete.append(Mutation(change)) },
            generic.observe(\.items) { _, change in dynamic.append(Mutation(change)) },
        ]
        func mutate(_ songs: inout [String], _ operation: Int, _ word: String) {
            switch operation {
            case 0: songs.append(word)
            case 1: songs.insert(word, at: songs.count / 2)
            case 2: if !songs.isEmpty { songs.remove(at: songs.count / 2) }
            case 3: if !songs.isEmpty { songs[songs.count - 1] = word }
            case 4: songs.replaceSubrange(0..<min(1, songs.count), with: [word, word])
            case 5: songs.append(contentsOf: [word, word])
            case 6: if songs.count > 3 { songs.removeAll() }
            default: songs = [word]
            }
        }
        for step in 0..<60 {
            let operation = Int.random(in: 0..<8, using: &random)
            let word = "w\(step)"
            mutate(&playlist.songs, operation, word)
            mutate(&generic.items, operation, word)
        }
        #expect(dynamic == concrete)
        #expect(Set(concrete.map(\.kind)) == [.setting, .insertion, .removal, .replacement])
        withExtendedLifetime(tokens) {}
    }

    @Test("generic collections of class references compare by identity; of other elements, settings")
    func genericElementKinds() {
        let stops = GenericHolder<[Address]>([Address(city: "A")])
        let points = GenericHolder<[Point]>([Point()])
        var kinds: [ObservedChangeKind] = []
        var pointKinds: [ObservedChangeKind] = []
        let tokens = [
            stops.observe(\.items) { _, change in kinds.append(change.kind) },
            points.observe(\.items) { _, change in pointKinds.append(change.kind) },
        ]
        stops.items.append(Address(city: "B"))
        stops.items[0] = Address(city: "A")  // equal city, another object: a replacement
        points.items.append(Point())
        #expect(kinds == [.insertion, .replacement])
        #expect(pointKinds == [.setting])
        withExtendedLifetime(tokens) {}
    }

    @Test("append, insert, remove, subscript set and removeAll each send one change with kind and indexes")
    func kindsAndIndexes() {
        let playlist = Playlist()
        playlist.songs = ["a", "b"]
        var seen: [Mutation] = []
        let token = playlist.observe(\.songs) { _, change in seen.append(Mutation(change)) }
        playlist.songs.append("c")
        playlist.songs.insert("z", at: 0)
        playlist.songs.remove(at: 1)
        playlist.songs[1] = "B"
        playlist.songs.append(contentsOf: ["d", "e"])
        playlist.songs.removeAll()
        #expect(
            seen == [
                Mutation(.insertion, [2..<3], old: ["a", "b"], new: ["a", "b", "c"]),
                Mutation(.insertion, [0..<1], old: ["a", "b", "c"], new: ["z", "a", "b", "c"]),
                Mutation(.removal, [1..<2], old: ["z", "a", "b", "c"], new: ["z", "b", "c"]),
                Mutation(.replacement, [1..<2], old: ["z", "b", "c"], new: ["z", "B", "c"]),
                Mutation(.insertion, [3..<5], old: ["z", "B", "c"], new: ["z", "B", "c", "d", "e"]),
                Mutation(.removal, [0..<5], old: ["z", "B", "c", "d", "e"], new: []),
            ])
        withExtendedLifetime(token) {}
    }

    @Test("an assignment is a setting without indexes, even when it looks like an insertion")
    func assignmentIsSetting() {
        let playlist = Playlist()
        var seen: [Mutation] = []
        let token = playlist.observe(\.songs) { _, change in seen.append(Mutation(change)) }
        playlist.songs = ["a"]
        let appended = playlist.songs + ["b"]
        playlist.songs = appended
        #expect(
            seen == [
                Mutation(.setting, nil, old: [], new: ["a"]),
                Mutation(.setting, nil, old: ["a"], new: ["a", "b"]),
            ])
        withExtendedLifetime(token) {}
    }

    @Test("replacements at separate positions are one change with every replaced index")
    func separateReplacements() {
        let playlist = Playlist()
        playlist.songs = ["a", "b", "c", "d"]
        var seen: [Mutation] = []
        let token = playlist.observe(\.songs, options: []) { _, change in seen.append(Mutation(change)) }
        playlist.songs.swapAt(0, 3)
        #expect(seen == [Mutation(.replacement, [0..<1, 3..<4])])
        withExtendedLifetime(token) {}
    }

    @Test("an in-place change that is no single insertion, removal or replacement is a setting")
    func mixedChangeIsSetting() {
        let playlist = Playlist()
        playlist.songs = ["a", "b", "c"]
        var seen: [Mutation] = []
        let token = playlist.observe(\.songs, options: []) { _, change in seen.append(Mutation(change)) }
        playlist.songs.replaceSubrange(0..<1, with: ["x", "y"])  // one replaced and one inserted
        playlist.songs.removeAll { $0 == "x" || $0 == "c" }  // two separate removals
        playlist.songs[0] = playlist.songs[0]  // nothing changed
        #expect(
            seen == [
                Mutation(.setting, nil),
                Mutation(.setting, nil),
                Mutation(.setting, nil),
            ])
        withExtendedLifetime(token) {}
    }

    @Test("class elements are compared by identity")
    func classElements() {
        let playlist = Playlist()
        let oslo = Address(city: "Oslo")
        playlist.stops = [oslo]
        var kinds: [(ObservedChangeKind, [Range<Int>]?)] = []
        let token = playlist.observe(\.stops) { _, change in
            kinds.append((change.kind, change.indexes.map { Array($0.ranges) }))
        }
        playlist.stops[0] = Address(city: "Oslo")  // equal city, another object
        playlist.stops.append(oslo)
        #expect(kinds.map(\.0) == [.replacement, .insertion])
        #expect(kinds.map(\.1) == [[0..<1], [1..<2]])
        withExtendedLifetime(token) {}
    }

    @Test("elements that cannot be compared give settings")
    func incomparableElements() {
        let playlist = Playlist()
        var seen: [(ObservedChangeKind, Int?)] = []
        let token = playlist.observe(\.points) { _, change in seen.append((change.kind, change.newValue?.count)) }
        playlist.points.append(Point(x: 1))
        #expect(seen.map(\.0) == [.setting])
        #expect(seen.map(\.1) == [1])
        withExtendedLifetime(token) {}
    }

    @Test("a .prior notification comes first, as a setting: what the mutation does is known only after it")
    func priorThenKind() {
        let playlist = Playlist()
        var log: [String] = []
        let token = playlist.observe(\.songs, options: [.prior, .old, .new]) { _, change in
            log.append(
                "\(change.isPrior ? "prior" : "post") \(change.kind) \(change.oldValue ?? []) \(change.newValue ?? [])")
        }
        playlist.songs.append("a")
        #expect(log == ["prior setting [] []", "post insertion [] [\"a\"]"])
        withExtendedLifetime(token) {}
    }

    @Test("the controller's several-key-path changes carry the kind and indexes too")
    func controllerKeepsIndexes() {
        final class Screen {}
        let screen = Screen()
        let playlist = Playlist()
        let controller = ObservationController(observer: screen)
        var seen: [(ObservedChangeKind, [Range<Int>]?)] = []
        controller.observe(playlist, keyPaths: [\.songs, \.stops]) { _, _, change in
            seen.append((change.kind, change.indexes.map { Array($0.ranges) }))
        }
        playlist.songs.append("a")
        #expect(seen.map(\.0) == [.insertion])
        #expect(seen.map(\.1) == [[0..<1]])
    }

    @Test("a path whose value is an optional array reports settings, as an optional array property does")
    func nestedPathIsSetting() {
        final class Library: KeyValueObservable {
            @Observed var playlist: Playlist? = Playlist()
        }
        let library = Library()
        var kinds: [ObservedChangeKind] = []
        var values: [[String]?] = []
        let token = library.observe(\.playlist?.songs) { _, change in
            kinds.append(change.kind)
            values.append(change.newValue ?? nil)
        }
        library.playlist?.songs.append("a")
        #expect(kinds == [.setting])
        #expect(values == [["a"]])
        withExtendedLifetime(token) {}
    }

    @Test(
        "a path whose value is an array reports what an in-place mutation did to that value: nested, computed, with every option"
    )
    func pathsReportTheirValuesKinds() {
        final class Library: KeyValueObservable {
            @Observed var playlist = Playlist()
            var sortedSongs: [String] { playlist.songs.sorted() }
        }
        let library = Library()
        library.playlist.songs = ["c", "a"]
        var seen: [String: [String]] = [:]
        func record(_ name: String, _ change: ObservedChange<[String]>) {
            let indexes = change.indexes.map(rangesText) ?? "-"
            seen[name, default: []].append("\(change.isPrior ? "prior " : "")\(change.kind) \(indexes)")
        }
        let tokens = [
            library.observe(\.playlist.songs) { record("nested", $1) },
            library.observe(\.playlist.songs, options: []) { record("nested []", $1) },
            library.observe(\.playlist.songs, options: [.new, .prior]) { record("nested prior", $1) },
            library.observe(\.sortedSongs) { record("computed", $1) },
            library.observe(\.sortedSongs, options: [.new]) { record("computed [.new]", $1) },
        ]
        library.playlist.songs.append("b")  // ["c", "a", "b"], sorted ["a", "b", "c"]
        library.playlist.songs.remove(at: 0)  // ["a", "b"], sorted ["a", "b"]
        library.playlist.songs = ["z"]
        library.playlist = Playlist()  // an intermediate: a setting
        #expect(seen["nested"] == ["insertion [2..<3]", "removal [0..<1]", "setting -", "setting -"])
        #expect(seen["nested []"] == seen["nested"])
        #expect(
            seen["nested prior"] == [
                "prior setting -", "insertion [2..<3]", "prior setting -", "removal [0..<1]", "prior setting -",
                "setting -", "prior setting -", "setting -",
            ])
        #expect(seen["computed"] == ["insertion [1..<2]", "removal [2..<3]", "setting -", "setting -"])
        #expect(seen["computed [.new]"] == seen["computed"])
        withExtendedLifetime(tokens) {}
    }

    @Test("a subclass whose getter reorders the array: the kind and indexes are those of the key path's value")
    func overridingGetter() {
        class Shelf: KeyValueObservable {
            @Observed var tags: [String] = []
        }
        final class ReversedShelf: Shelf {
            override var tags: [String] {
                get { super.tags.reversed() }
                set { super.tags = newValue.reversed() }
            }
            func add(_ tag: String) { super.tags.append(tag) }
        }
        let shelf = ReversedShelf()
        var seen: [String] = []
        let token = shelf.observe(\.tags) { _, change in
            seen.append("\(change.kind) \(change.indexes.map(rangesText) ?? "-") \(change.newValue!)")
        }
        shelf.add("a")
        shelf.add("b")  // stored ["a", "b"]: the key path's value is ["b", "a"], "b" inserted at 0
        shelf.tags.append("c")  // through the override's get and set: an assignment of the base's
        #expect(
            seen == [
                "insertion [0..<1] [\"a\"]", "insertion [0..<1] [\"b\", \"a\"]", "setting - [\"b\", \"a\", \"c\"]",
            ])
        withExtendedLifetime(token) {}
    }

    @Test("a generic property holding an optional array reports settings, as a concrete optional array does")
    func genericOptionalArray() {
        final class Concrete: KeyValueObservable {
            @Observed var items: [String]? = []
        }
        let generic = GenericHolder<[String]?>([])
        let concrete = Concrete()
        var kinds: [ObservedChangeKind] = []
        let tokens = [
            generic.observe(\.items) { _, change in kinds.append(change.kind) },
            concrete.observe(\.items) { _, change in kinds.append(change.kind) },
        ]
        generic.items?.append("a")
        concrete.items?.append("a")
        #expect(kinds == [.setting, .setting])
        withExtendedLifetime(tokens) {}
    }

    @Test("an array appended in place is not copied, unless observed (the old value is kept); a generic one too")
    func appendsInPlace() {
        let playlist = Playlist()
        let generic = GenericHolder<[String]>([])
        playlist.songs.reserveCapacity(16)
        generic.items.reserveCapacity(16)
        func buffers() -> [UnsafePointer<String>?] {
            [
                playlist.songs.withUnsafeBufferPointer { $0.baseAddress },
                generic.items.withUnsafeBufferPointer { $0.baseAddress },
            ]
        }
        let unobserved = buffers()
        playlist.songs.append("a")
        generic.items.append("a")
        #expect(buffers() == unobserved)
        let tokens = [playlist.observe(\.songs) { _, _ in }, generic.observe(\.items) { _, _ in }]
        let observed = buffers()
        playlist.songs.append("b")
        generic.items.append("b")
        #expect(zip(buffers(), observed).allSatisfy { $0 != $1 })
        #expect(playlist.songs == ["a", "b"] && generic.items == ["a", "b"])
        withExtendedLifetime(tokens) {}
    }
}
