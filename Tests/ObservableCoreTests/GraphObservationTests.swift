import Testing

@testable import ObservableCore

@KeyValueObservable
private final class Bookcase {
    var books: [Volume] = []
}

@KeyValueObservable
private final class Volume {
    var title = ""
    var chapters: [Section] = []
    var cover: Jacket?
    var index: [String: Section] = [:]
    weak var shelf: Bookcase?
}

@KeyValueObservable
private final class Section {
    var title = ""
    var pages = 0
    var notes: [Section] = []
    weak var book: Volume?
    init(_ title: String = "") { self.title = title }
}

@KeyValueObservable
private final class Jacket {
    var color = ""
}

/// A linked list, to follow a long chain without recursion.
@KeyValueObservable
private final class ChainLink {
    var value = 0
    var next: ChainLink?
}

/// Conforms by hand: no list, so a graph that reaches one cannot observe its properties.
private final class Sticker: KeyValueObservable {
    @Observed var text = ""
}

@KeyValueObservable
private final class Binder {
    var label = ""
    var sticker: Sticker? = Sticker()
}

@KeyValueObservable
private final class Wardrobe {
    var coats: Set<Coat> = []
}

@KeyValueObservable
private final class Coat {
    var color = ""
}

extension Coat: Hashable {
    static func == (lhs: Coat, rhs: Coat) -> Bool { lhs === rhs }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// What a deep observation heard: the path, the values, and whether the object was the one set.
private final class Heard: @unchecked Sendable {
    private let lines = Locked<[String]>([])
    func record(_ change: PropertyChange) {
        let old = change.oldValue.map { "\($0)" } ?? "nil"
        let new = change.newValue.map { "\($0)" } ?? "nil"
        lines.withLock { $0.append("\(change.path) \(old)->\(new)") }
    }
    var all: [String] { lines.withLock { $0 } }
    func clear() { lines.withLock { $0 = [] } }
}

@Suite("Observing an object graph")
struct GraphObservationTests {
    @Test(
        "an object the graph reaches whose class no @KeyValueObservable lists is not observed, and debug builds say so")
    func unlistedChild() {
        let binder = Binder()
        let heard = Heard()
        let token = binder.observeProperties(deep: true) { _, change in heard.record(change) }
        binder.sticker?.text = "new"
        binder.label = "A"
        #expect(heard.all == ["label ->A"])
        #if DEBUG
        #expect(Diagnostics.messages.contains { $0.contains("observing a graph reached a Sticker") })
        #endif
        withExtendedLifetime(token) {}
    }

    @Test("a change anywhere in the graph, with where it happened, its object, and the root")
    func paths() {
        let book = Volume()
        let intro = Section("Intro")
        let body = Section("Body")
        book.chapters = [intro, body]
        book.cover = Jacket()
        book.index = ["intro": intro]
        let heard = Heard()
        let objects = Locked<[ObjectIdentifier?]>([])
        let token = book.observeProperties(deep: true) { root, change in
            #expect(root === book)
            heard.record(change)
            objects.withLock { $0.append(change.object.map(ObjectIdentifier.init)) }
        }
        book.title = "Swift"
        body.title = "Middle"
        book.cover?.color = "red"
        intro.pages = 3  // once: the graph observes an object once, however many ways reach it
        #expect(
            heard.all == [
                "title ->Swift", "chapters[1].title Body->Middle", "cover.color ->red", "chapters[0].pages 0->3",
            ])
        #expect(
            objects.withLock { $0 } == [
                ObjectIdentifier(book), ObjectIdentifier(body), ObjectIdentifier(book.cover!), ObjectIdentifier(intro),
            ])
        // Positions are those of the moment the path is read.
        book.chapters.insert(Section("Preface"), at: 0)
        heard.clear()
        body.pages = 1
        #expect(heard.all == ["chapters[2].pages 0->1"])
        withExtendedLifetime(token) {}
    }

    @Test("each change's JSON Pointer names the path's steps: indexes and keys as tokens, escaped; none through a set")
    func pointers() throws {
        let book = Volume()
        let intro = Section("Intro")
        let body = Section("Body")
        book.chapters = [intro, body]
        body.notes = [Section("a"), Section("b")]
        book.cover = Jacket()
        book.index = ["in/tro~": intro]
        let pointers = Locked<[String?]>([])
        let token = book.observeProperties(deep: true) { _, change in
            pointers.withLock { $0.append(change.pointer?.description) }
        }
        book.title = "Swift"
        body.notes[1].title = "B"
        book.cover?.color = "red"
        book.chapters.append(Section("End"))
        #expect(
            pointers.withLock { $0 } == ["/title", "/chapters/1/notes/1/title", "/cover/color", "/chapters"])
        // Reached only through the dictionary: its key is the token, escaped.
        book.chapters = []
        pointers.withLock { $0 = [] }
        intro.pages = 2
        #expect(pointers.withLock { $0 } == ["/index/in~1tro~0/pages"])
        #expect(try JSONPointer("/index/in~1tro~0/pages").tokens == ["index", "in/tro~", "pages"])
        withExtendedLifetime(token) {}

        let wardrobe = Wardrobe()
        let coat = Coat()
        wardrobe.coats = [coat]
        let paths = Locked<[String]>([])
        let setToken = wardrobe.observeProperties(deep: true) { _, change in
            paths.withLock { $0.append(change.path) }
            pointers.withLock { $0.append(change.pointer?.description) }
        }
        pointers.withLock { $0 = [] }
        coat.color = "blue"
        #expect(paths.withLock { $0 } == ["coats.color"])
        #expect(pointers.withLock { $0 } == [nil])
        withExtendedLifetime(setToken) {}
    }

    @Test("objects join and leave as the graph changes: added ones are heard, removed and replaced ones are not")
    func rewiring() {
        let book = Volume()
        let heard = Heard()
        let token = book.observeProperties(deep: true) { _, change in heard.record(change) }
        let first = Section("one")
        book.chapters.append(first)
        first.title = "One"
        let oldCover = Jacket()
        book.cover = oldCover
        let newCover = Jacket()
        book.cover = newCover
        oldCover.color = "unheard"
        newCover.color = "heard"
        book.chapters.removeAll()
        first.title = "unheard"
        #expect(
            heard.all.filter { !$0.hasPrefix("chapters ") && !$0.hasPrefix("cover ") } == [
                "chapters[0].title one->One", "cover.color ->heard",
            ])
        #expect(first.observationsDescription.hasSuffix("no live observations"))
        #expect(oldCover.observationsDescription.hasSuffix("no live observations"))
        token.cancel()
        #expect(newCover.observationsDescription.hasSuffix("no live observations"))
        #expect(book.observationsDescription.hasSuffix("no live observations"))
    }

    @Test("a shared object stays while any way reaches it; a cycle that comes loose leaves")
    func sharedAndCycles() {
        let book = Volume()
        let shared = Section("shared")
        book.chapters = [shared]
        book.index = ["s": shared]
        let heard = Heard()
        let token = book.observeProperties(deep: true) { _, change in heard.record(change) }
        book.chapters = []
        shared.pages = 1  // still reached through the index
        book.index = [:]
        shared.pages = 2  // not reached any more
        #expect(heard.all.filter { $0.contains("pages") } == ["index[\"s\"].pages 0->1"])

        // A cycle: a chapter whose note refers back to it.
        weak var weakLooping: Section?
        weak var weakOther: Section?
        do {
            let looping = Section("a")
            let other = Section("b")
            weakLooping = looping
            weakOther = other
            looping.notes = [other]
            other.notes = [looping]
            book.chapters = [looping]
            heard.clear()
            other.pages = 1
            #expect(heard.all == ["chapters[0].notes[0].pages 0->1"])
            book.chapters = []
            heard.clear()
            other.pages = 2
            looping.pages = 2
            #expect(heard.all.isEmpty)
            #expect(other.observationsDescription.hasSuffix("no live observations"))
            #expect(looping.observationsDescription.hasSuffix("no live observations"))
            looping.notes = []  // the test's own cycle; the observation holds neither object
        }
        #expect(weakLooping == nil)
        #expect(weakOther == nil)
        withExtendedLifetime(token) {}
    }

    @Test("weak and unowned references are observed as properties, but their objects are not followed")
    func weakNotFollowed() {
        let shelf = Bookcase()
        let book = Volume()
        shelf.books = [book]
        book.shelf = shelf
        let chapter = Section()
        book.chapters = [chapter]
        chapter.book = book
        let heard = Heard()
        let token = book.observeProperties(deep: true) { _, change in heard.record(change) }
        shelf.books = []  // the shelf is not in the book's graph
        book.shelf = nil  // but the property holding it is
        chapter.title = "x"  // the chapter's weak book points back: observed once
        #expect(heard.all == ["shelf \(shelf)->nil", "chapters[0].title ->x"])
        withExtendedLifetime(token) {}
    }

    @Test("options, lifetimes and the end: nothing kept alive, the root's deallocation ends it once")
    func lifetimes() {
        weak var weakBook: Volume?
        weak var weakChapter: Section?
        let ended = Counter()
        let heard = Heard()
        let token: ObservationToken
        do {
            let book = Volume()
            let chapter = Section()
            book.chapters = [chapter]
            weakBook = book
            weakChapter = chapter
            token = book.observeProperties(options: [.new], deep: true) { _, change in
                heard.record(change)
            } onObservedDeallocated: {
                ended.increment()
            }
            chapter.pages = 4
        }
        #expect(weakBook == nil && weakChapter == nil)
        #expect(ended.current == 1)
        #expect(!token.isActive)
        #expect(heard.all == ["chapters[0].pages nil->4"])
        // Without deep, the same call observes the object alone.
        let book = Volume()
        let chapter = Section()
        book.chapters = [chapter]
        let shallow = book.observeProperties(deep: false) { _, change in heard.record(change) }
        heard.clear()
        chapter.pages = 1
        book.title = "t"
        #expect(heard.all == ["title ->t"])
        withExtendedLifetime(shallow) {}
    }

    @Test(
        "the options' values, before and after, with the path and the object, when passed on as the node made them or not"
    )
    func optionsOfNodesAndGraph() {
        let book = Volume()
        let chapter = Section()
        book.chapters = [chapter]
        for options: PropertyObservationOptions in [[.old, .new, .prior], [.new, .prior], [.old]] {
            let heard = Heard()
            let priors = Locked<[Bool]>([])
            let objects = Locked<[ObjectIdentifier?]>([])
            let token = book.observeProperties(options: options, deep: true) { _, change in
                heard.record(change)
                priors.withLock { $0.append(change.isPrior) }
                objects.withLock { $0.append(change.object.map(ObjectIdentifier.init)) }
            }
            chapter.pages += 1
            book.title += "!"
            let old = options.contains(.old)
            let new = options.contains(.new)
            let pages = "\(chapter.pages - 1)"
            let title = String(book.title.dropLast())
            let prior = options.contains(.prior)
            #expect(
                heard.all
                    == (prior ? ["chapters[0].pages \(old ? pages : "nil")->nil"] : [])
                    + ["chapters[0].pages \(old ? pages : "nil")->\(new ? "\(chapter.pages)" : "nil")"]
                    + (prior ? ["title \(old ? title : "nil")->nil"] : [])
                    + ["title \(old ? title : "nil")->\(new ? book.title : "nil")"])
            #expect(priors.withLock { $0 } == (prior ? [true, false, true, false] : [false, false]))
            let expectedObjects = [ObjectIdentifier(chapter), ObjectIdentifier(book)]
            #expect(objects.withLock { $0 } == expectedObjects.flatMap { prior ? [$0, $0] : [$0] })
            token.cancel()
        }
        // The root's own change of bytes, which a graph of other options makes again from its fields.
        let root = Section()
        root.notes = [Section()]
        for options: PropertyObservationOptions in [[.old, .new, .prior], [.new], [.old], [.new, .distinct]] {
            let heard = Heard()
            let objects = Locked<[ObjectIdentifier?]>([])
            let token = root.observeProperties(options: options, deep: true) { _, change in
                heard.record(change)
                objects.withLock { $0.append(change.object.map(ObjectIdentifier.init)) }
            }
            root.pages += 1
            root.pages = root.pages
            let (old, new, pages) = (options.contains(.old), options.contains(.new), root.pages)
            let sets = [(pages - 1, pages)] + (options.contains(.distinct) ? [] : [(pages, pages)])
            #expect(
                heard.all
                    == sets.flatMap { from, to in
                        (options.contains(.prior) ? ["pages \(old ? "\(from)" : "nil")->nil"] : [])
                            + ["pages \(old ? "\(from)" : "nil")->\(new ? "\(to)" : "nil")"]
                    })
            #expect(objects.withLock { $0 } == Array(repeating: ObjectIdentifier(root), count: heard.all.count))
            token.cancel()
        }
    }

    @Test("a change kept after its handler: a child's holds its object, the root's names the root while it lives")
    func keptChangesAndTheirObjects() {
        weak var weakBook: Volume?
        let kept = Locked<[PropertyChange]>([])
        let chapter = Section()
        do {
            let book = Volume()
            book.chapters = [chapter]
            weakBook = book
            let token = book.observeProperties(deep: true) { _, change in kept.withLock { $0.append(change) } }
            book.title = "t"
            chapter.pages = 2
            #expect(
                kept.withLock { $0.map { $0.object.map(ObjectIdentifier.init) } } == [
                    ObjectIdentifier(book), ObjectIdentifier(chapter),
                ])
            withExtendedLifetime(token) {}
        }
        // The root's change did not keep the root; the chapter is still held by the test.
        #expect(weakBook == nil)
        let changes = kept.withLock { $0 }
        #expect(changes.map(\.name) == ["title", "pages"])
        #expect(changes[0].object == nil)
        #expect(changes[1].object === chapter)
    }

    @Test("a kept change finds its place through its observation: once that ends, the root's names no object")
    func keptChangesAfterTheObservation() {
        let kept = Locked<[PropertyChange]>([])
        let book = Volume()
        let chapter = Section()
        book.chapters = [chapter]
        do {
            let token = book.observeProperties(deep: true) { _, change in kept.withLock { $0.append(change) } }
            book.title = "t"
            chapter.pages = 2
            let changes = kept.withLock { $0 }
            #expect(changes.map(\.path) == ["title", "chapters[0].pages"])
            #expect(changes[0].object === book)
            #expect(changes[1].object === chapter)
            #expect(changes.compactMap { $0.location?.graph }.count == 2)
            #expect(GraphDirectory.graph(numbered: changes[0].location!.graph) != nil)
            token.cancel()
        }
        let changes = kept.withLock { $0 }
        // The graph has left the directory.
        #expect(GraphDirectory.graph(numbered: changes[0].location!.graph) == nil)
        // The observation has ended: a child's change still holds its object; paths are the names.
        #expect(changes[0].object == nil)
        #expect(changes[1].object === chapter)
        #expect(changes.map(\.path) == ["title", "pages"])
        withExtendedLifetime(book) {}
    }

    @Test("a long chain is followed without recursion, and let go")
    func longChain() {
        let head = ChainLink()
        var tail = head
        for value in 1...5_000 {
            let link = ChainLink()
            link.value = value
            tail.next = link
            tail = link
        }
        let heard = Counter()
        let token = head.observeProperties(deep: true) { _, _ in heard.increment() }
        tail.value = -1
        #expect(heard.current == 1)
        head.next = nil
        tail.value = -2
        #expect(heard.current == 2)  // the `next` change itself; the chain left
        token.cancel()
        // Taken apart link by link, so that releasing the chain does not recurse either.
        var link: ChainLink? = tail
        link = nil
        _ = link
    }

    @Test("a deep tracker and a deep undo history: changes of reached objects, undone and reverted")
    func editors() {
        let book = Volume()
        let chapter = Section("draft")
        book.chapters = [chapter]
        let tracker = ChangeTracker(tracking: book, deep: true)
        let history = UndoHistory(recording: book, deep: true)
        chapter.title = "final"
        book.chapters.append(Section("new"))
        #expect(tracker.changedPropertyNames == ["title", "chapters"])
        #expect(tracker.changes.first?.object === chapter)
        history.undo()
        #expect(book.chapters.count == 1)
        history.undo()
        #expect(chapter.title == "draft")
        #expect(!tracker.hasChanges)
        history.redo()
        history.redo()
        #expect(chapter.title == "final" && book.chapters.map(\.title) == ["final", "new"])
        book.chapters[1].pages = 9  // the chapter redo put back is observed again
        tracker.revert()
        #expect(chapter.title == "draft" && book.chapters.count == 1)
        #expect(!tracker.hasChanges)
    }

    @Test("objects added, changed and removed on several threads, each in its own book")
    func concurrency() {
        let shelf = Bookcase()
        let books = (0..<4).map { _ in Volume() }
        shelf.books = books
        let heard = Counter()
        let token = shelf.observeProperties(deep: true) { _, _ in heard.increment() }
        nonisolated(unsafe) let shared = books
        runConcurrently(
            (0..<4).map { role in
                {
                    let book = shared[role]
                    for round in 0..<200 {
                        let chapter = Section()
                        book.chapters.append(chapter)
                        chapter.pages = round
                        if round % 3 == 0 { book.chapters.removeFirst() }
                    }
                }
            })
        // Each round: the append and the chapter's set, and every third a removal.
        #expect(heard.current == 4 * (200 * 2 + 67))
        token.cancel()
        #expect(
            books.allSatisfy { $0.chapters.allSatisfy { $0.observationsDescription.hasSuffix("no live observations") } }
        )
    }

    @Test("through a controller and as a sequence, deep: one per object, replacing the shallow one")
    func controllerAndSequence() async {
        final class Editor {
            var paths: [String] = []
        }
        let editor = Editor()
        let controller = ObservationController(observer: editor)
        let book = Volume()
        let section = Section()
        book.chapters = [section]
        controller.observeProperties(of: book) { editor, _, change in editor.paths.append("shallow " + change.path) }
        controller.observeProperties(of: book, deep: true) { editor, _, change in editor.paths.append(change.path) }
        section.pages = 1
        book.title = "t"
        #expect(editor.paths == ["chapters[0].pages", "title"])
        controller.unobserveProperties(of: book)
        section.pages = 2
        #expect(editor.paths.count == 2)

        var iterator = book.propertyChanges(deep: true).makeAsyncIterator()
        section.title = "s"
        book.chapters.append(Section())
        let first = await iterator.next()
        let second = await iterator.next()
        #expect(first.map { "\($0)" } == "setting chapters[0].title")
        #expect(second.map { "\($0)" } == "insertion chapters 1..<2")
    }
}
