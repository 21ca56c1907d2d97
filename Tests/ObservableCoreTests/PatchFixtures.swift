import Foundation
import ObservableCore

// A document for the JSON Patch tests: optionals, arrays of values and of objects, a dictionary of
// objects, a subclass, a weak back reference and a private property, which patches do not reach.

@KeyValueObservable
final class Manuscript: Codable {
    var title = ""
    var subtitle: String?
    var parts: [Part] = []
    var tags: [String] = []
    var ratings: [Int?] = []
    var lead: Part?
    var index: [String: Part] = [:]
    var appendix: Appendix?
    private var drafts = 0
    init() {}

    func redraft() { drafts += 1 }
}

@KeyValueObservable
class Part: Codable {
    var title = ""
    var notes: [String] = []
    weak var manuscript: Manuscript?
    init(_ title: String = "") { self.title = title }

    private enum CodingKeys: String, CodingKey {
        case title, notes
    }
}

/// A subclass codes its own property itself: the compiler synthesises nothing for it.
@KeyValueObservable
final class Appendix: Part {
    var pages = 0

    init(_ title: String = "", pages: Int) {
        self.pages = pages
        super.init(title)
    }

    required init(from decoder: any Decoder) throws {
        pages = try decoder.container(keyedBy: Keys.self).decode(Int.self, forKey: .pages)
        try super.init(from: decoder)
    }

    override func encode(to encoder: any Encoder) throws {
        try super.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(pages, forKey: .pages)
    }

    private enum Keys: String, CodingKey {
        case pages
    }
}

extension Manuscript {
    /// One random edit of any kind a patch records: sets, in-place array changes, new, shared and
    /// removed children, a subclass's properties.
    func randomEdit(using generator: inout SeededGenerator) {
        let book = self
        let word = ["a", "b", "c", "d"].randomElement(using: &generator)!
        // Held as a `Part`, an appendix would decode as one: it is edited, never placed elsewhere.
        let parts = book.parts + (book.lead.map { [$0] } ?? []) + book.index.values
        let edited = parts + (book.appendix.map { [$0] } ?? [])
        switch Int.random(in: 0..<15, using: &generator) {
        case 0: book.title = word
        case 1: book.subtitle = Bool.random(using: &generator) ? word : nil
        case 2: book.tags.insert(word, at: Int.random(in: 0...book.tags.count, using: &generator))
        case 3:
            let start = Int.random(in: 0...book.tags.count, using: &generator)
            book.tags.removeSubrange(start..<Int.random(in: start...book.tags.count, using: &generator))
        case 4: if !book.tags.isEmpty { book.tags[Int.random(in: 0..<book.tags.count, using: &generator)] = word }
        case 5: book.ratings.append(Bool.random(using: &generator) ? nil : Int.random(in: 0...5, using: &generator))
        case 6: book.parts.insert(Part(word), at: Int.random(in: 0...book.parts.count, using: &generator))
        case 7:
            let start = Int.random(in: 0...book.parts.count, using: &generator)
            book.parts.removeSubrange(start..<Int.random(in: start...book.parts.count, using: &generator))
        case 8: book.lead = Bool.random(using: &generator) ? parts.randomElement(using: &generator) ?? Part(word) : nil
        case 9: edited.randomElement(using: &generator)?.title = word
        case 10: edited.randomElement(using: &generator)?.notes.append(word)
        case 11: book.index[word] = Bool.random(using: &generator) ? parts.randomElement(using: &generator) : nil
        case 12: book.appendix = Bool.random(using: &generator) ? Appendix(word, pages: 1) : nil
        case 13: book.appendix?.pages += 1
        default: if book.parts.count > 1 { book.parts.swapAt(0, book.parts.count - 1) }
        }
    }

    /// The document as JSON, members sorted: equal documents give equal bytes.
    var json: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try! encoder.encode(self)
    }
}
