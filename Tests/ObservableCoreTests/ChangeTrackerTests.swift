import ObservableCore
import Observation
import Testing

/// A value that cannot be compared: once set, a tracker holds it changed.
struct Opaque {
    var code: Int
}

@KeyValueObservable
class Draft {
    var title = ""
    var words = 0
    var note: String?
    var tags: [String] = []
    var opaque = Opaque(code: 0)
}

@KeyValueObservable
final class Memo: Draft {
    var recipient = ""
}

@Suite("Unsaved changes and revert")
struct ChangeTrackerTests {
    @Test("what changed since tracking started, with the original values, in the order first changed")
    func changes() {
        let memo = Memo()
        memo.title = "before tracking"
        let tracker = ChangeTracker(tracking: memo)
        #expect(!tracker.hasChanges)
        #expect(tracker.changes.isEmpty)
        memo.recipient = "Ann"
        memo.title = "Minutes"
        memo.title = "Minutes, final"
        memo.note = "urgent"
        #expect(tracker.hasChanges)
        #expect(tracker.changedPropertyNames == ["recipient", "title", "note"])
        #expect(
            tracker.changes.map(\.description) == [
                #"recipient: "" -> "Ann""#, #"title: "before tracking" -> "Minutes, final""#,
                #"note: nil -> "urgent""#,
            ])
        #expect(tracker.changes.map(\.keyPath) == [\Memo.recipient, \Draft.title, \Draft.note])
        #expect(tracker.changes.allSatisfy { $0.object === memo })
        #expect(tracker.originalValue(of: "title") as? String == "before tracking")
        #expect(tracker.originalValue(of: "words") == nil)
    }

    @Test("a property set back to its original value is no longer changed; one that cannot be compared stays")
    func setBack() {
        let draft = Draft()
        let tracker = ChangeTracker(tracking: draft)
        draft.words = 5
        draft.tags.append("a")
        draft.words = 0
        #expect(tracker.changedPropertyNames == ["tags"])
        draft.tags.removeAll()
        #expect(!tracker.hasChanges)
        // Setting the value it has changes nothing.
        draft.title = ""
        #expect(!tracker.hasChanges)
        draft.opaque = Opaque(code: 1)
        draft.opaque = Opaque(code: 0)
        #expect(tracker.changedPropertyNames == ["opaque"])
    }

    @Test("markSaved takes the current values as the original ones")
    func markSaved() {
        let draft = Draft()
        let tracker = ChangeTracker(tracking: draft)
        draft.title = "One"
        tracker.markSaved()
        #expect(!tracker.hasChanges)
        #expect(tracker.changes.isEmpty)
        draft.title = "Two"
        #expect(tracker.changes.map(\.description) == [#"title: "One" -> "Two""#])
        draft.title = "One"
        #expect(!tracker.hasChanges)
    }

    @Test(
        "revert sets the original values back through the setters, in the reverse of the order first changed, observers told, nothing recorded"
    )
    func revert() {
        let memo = Memo()
        memo.note = "kept"
        let tracker = ChangeTracker(tracking: memo)
        memo.title = "A"
        memo.recipient = "Bo"
        memo.note = nil
        memo.opaque = Opaque(code: 9)
        memo.title = "B"
        let told = Locked<[String]>([])
        let token = memo.observeProperties { _, change in
            told.withLock { $0.append("\(change.name) -> \(change.newValue.map { "\($0)" } ?? "nil")") }
        }
        tracker.revert()
        #expect(
            told.withLock { $0 } == [
                "opaque -> Opaque(code: 0)", "note -> kept", "recipient -> ", "title -> ",
            ])
        #expect(memo.title == "" && memo.recipient == "" && memo.note == "kept" && memo.opaque.code == 0)
        #expect(!tracker.hasChanges)
        #expect(tracker.changes.isEmpty)
        // Tracking goes on after a revert.
        memo.words = 3
        #expect(tracker.changedPropertyNames == ["words"])
        withExtendedLifetime(token) {}
    }

    @Test("its state is observable: by observe, and by Observation (a Save button enables itself)")
    func observableState() {
        let draft = Draft()
        let tracker = ChangeTracker(tracking: draft)
        let seen = Locked<[Bool]>([])
        let token = tracker.observe(\.hasChanges, options: [.new]) { _, change in
            seen.withLock { $0.append(change.newValue!) }
        }
        let tracked = Counter()
        withObservationTracking {
            _ = tracker.hasChanges
        } onChange: {
            tracked.increment()
        }
        draft.title = "x"
        draft.words = 1  // still changed: no new notification of hasChanges
        #expect(tracked.current == 1)
        tracker.markSaved()
        draft.title = "y"
        tracker.revert()
        #expect(seen.withLock { $0 } == [true, false, true, false])
        withExtendedLifetime(token) {}
    }

    @Test("tracking holds neither the object nor the tracker, and ends with the tracker")
    func lifetimes() {
        weak var weakDraft: Draft?
        weak var weakTracker: ChangeTracker?
        let kept: ChangeTracker
        do {
            let draft = Draft()
            weakDraft = draft
            kept = ChangeTracker(tracking: draft)
            draft.title = "gone"
            let released = ChangeTracker(tracking: draft)
            weakTracker = released
        }
        #expect(weakDraft == nil)
        #expect(weakTracker == nil)
        #expect(kept.changedPropertyNames == ["title"])
        #expect(kept.changes.first?.object == nil)
        // Nothing to set back on a deallocated object.
        kept.revert()
        #expect(!kept.hasChanges)

        let draft = Draft()
        do {
            let tracker = ChangeTracker(tracking: draft)
            draft.title = "a"
            #expect(tracker.hasChanges)
        }
        #expect(draft.observationsDescription.hasSuffix("no live observations"))
    }

    @Test("edits on several threads at once are each recorded; the published state ends as the records")
    func concurrency() {
        nonisolated(unsafe) let draft = Draft()
        let tracker = ChangeTracker(tracking: draft)
        let observedChanges = Counter()
        let token = tracker.observe(\.changedPropertyNames) { _, _ in observedChanges.increment() }
        runConcurrently([
            { for round in 1...500 { draft.words = round % 3 } },
            { for round in 1...500 { draft.title = round % 2 == 0 ? "" : "odd" } },
            { for round in 1...500 { draft.note = round % 5 == 0 ? nil : "n" } },
            {
                for _ in 1...100 {
                    _ = tracker.changes
                    _ = tracker.hasChanges
                    _ = tracker.changedPropertyNames
                }
            },
        ])
        let expected = [("words", draft.words != 0), ("title", draft.title != ""), ("note", draft.note != nil)]
            .filter(\.1).map(\.0)
        #expect(Set(tracker.changedPropertyNames) == Set(expected))
        #expect(Set(tracker.changes.map(\.name)) == Set(expected))
        #expect(tracker.hasChanges == !expected.isEmpty)
        #expect(observedChanges.current > 0)
        withExtendedLifetime(token) {}
    }
}
