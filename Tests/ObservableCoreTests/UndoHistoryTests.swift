import ObservableCore
import Observation
import Testing

#if canImport(Darwin)
import Foundation
#endif

@KeyValueObservable
class Canvas {
    var width = 1
    var height = 1
    /// Kept in step with width and height by the model itself: a set inside another set.
    var area = 1
    var title = ""
    var layers: [String] = []
    var scale = 1 {
        didSet { area = width * height * scale }
    }
}

@KeyValueObservable
final class LayeredCanvas: Canvas {
    var opacity = 1.0
}

@Suite("Undo and redo")
struct UndoHistoryTests {
    @Test("each set is a group: undo sets the old value back, redo the new one; the stacks and names follow")
    func undoAndRedo() {
        let canvas = LayeredCanvas()
        let history = UndoHistory(recording: canvas)
        #expect(!history.canUndo && !history.canRedo)
        canvas.title = "Sketch"
        canvas.opacity = 0.5
        #expect(history.canUndo)
        history.undo()
        #expect(canvas.opacity == 1.0 && canvas.title == "Sketch")
        #expect(history.canUndo && history.canRedo)
        history.undo()
        #expect(canvas.title == "")
        #expect(!history.canUndo)
        history.undo()  // nothing left: nothing happens
        history.redo()
        history.redo()
        #expect(canvas.title == "Sketch" && canvas.opacity == 0.5)
        #expect(!history.canRedo)
        history.redo()
        #expect(canvas.title == "Sketch")
    }

    @Test("a named group undoes as one, its repeated sets of a property coalesced to the first old value")
    func namedGroups() {
        let canvas = Canvas()
        let history = UndoHistory(recording: canvas)
        history.group(named: "Resize") {
            canvas.width = 2
            canvas.width = 3
            history.group(named: "inner") { canvas.height = 4 }
            canvas.layers.append("grid")
        }
        #expect(history.undoActionName == "Resize")
        canvas.title = "plain"
        #expect(history.undoActionName == "")
        history.undo()
        #expect(history.redoActionName == "")
        #expect(history.undoActionName == "Resize")
        let told = Locked<[String]>([])
        let token = canvas.observeProperties { _, change in told.withLock { $0.append(change.name) } }
        history.undo()
        // The group's last change first.
        #expect(told.withLock { $0 } == ["layers", "height", "width"])
        #expect(canvas.width == 1 && canvas.height == 1 && canvas.layers.isEmpty)
        #expect(history.redoActionName == "Resize")
        history.redo()
        #expect(canvas.width == 3 && canvas.height == 4 && canvas.layers == ["grid"])
        withExtendedLifetime(token) {}
    }

    @Test(
        "a set made before the set that caused it returns joins its group: in a didSet, and in observers registered before and after the history"
    )
    func consequencesJoinTheGroup() {
        let canvas = Canvas()
        let before = canvas.observe(\.width) { canvas, _ in canvas.area = canvas.width * canvas.height }
        let history = UndoHistory(recording: canvas)
        let after = canvas.observe(\.height) { canvas, _ in canvas.area = canvas.width * canvas.height }
        canvas.width = 3  // area 3, by the observer registered before the history
        canvas.height = 2  // area 6, by the observer registered after it
        canvas.scale = 2  // area 12, by the model's own didSet
        #expect(canvas.area == 12)
        history.undo()
        #expect(canvas.scale == 1 && canvas.area == 6)
        history.undo()
        #expect(canvas.height == 1 && canvas.area == 3)
        history.undo()
        #expect(canvas.width == 1 && canvas.area == 1)
        #expect(!history.canUndo)
        // The observers run again as the values go back; their sets are not recorded.
        history.redo()
        #expect(canvas.width == 3 && canvas.area == 3)
        #expect(history.canRedo)
        withExtendedLifetime((before, after)) {}
    }

    @Test("undoing records nothing new; a new change clears the redo stack; levels keep the latest groups")
    func stacks() {
        let canvas = Canvas()
        let history = UndoHistory(recording: canvas, levelsOfUndo: 2)
        canvas.width = 2
        canvas.width = 3
        canvas.width = 4
        history.undo()
        history.undo()
        #expect(canvas.width == 2)
        #expect(!history.canUndo)  // the first group was dropped: two levels
        #expect(history.canRedo)
        canvas.title = "new"
        #expect(!history.canRedo)
        history.levelsOfUndo = 1
        #expect(history.levelsOfUndo == 1)
        canvas.height = 9
        history.undo()
        #expect(!history.canUndo)
        #expect(canvas.title == "new")
        history.removeAllActions()
        #expect(!history.canUndo && !history.canRedo)
    }

    @Test("undo does nothing inside a group; a change announced by hand is a group of its own")
    func edges() {
        let canvas = Canvas()
        let history = UndoHistory(recording: canvas)
        canvas.width = 5
        history.group(named: "edit") {
            canvas.height = 2
            history.undo()
        }
        #expect(canvas.width == 5 && canvas.height == 2)
        history.undo()
        #expect(canvas.height == 1 && canvas.width == 5)
        let ledger = Ledger()
        let ledgerHistory = UndoHistory(recording: ledger)
        ledger.deposit(5)
        ledger.deposit(7)
        ledgerHistory.undo()
        #expect(ledger.balance == 5)
        ledgerHistory.undo()
        #expect(ledger.balance == 0)
    }

    @Test("its state is observable: by observe, and by Observation (Undo buttons enable themselves)")
    func observableState() {
        let canvas = Canvas()
        let history = UndoHistory(recording: canvas)
        let seen = Locked<[String]>([])
        func record<Value>(_ keyPath: KeyPath<UndoHistory, Value>, _ name: String) -> ObservationToken {
            history.observe(keyPath, options: [.new]) { _, change in
                seen.withLock { $0.append("\(name) \(change.newValue!)") }
            }
        }
        let tokens = [
            record(\.canUndo, "canUndo"), record(\.canRedo, "canRedo"), record(\.undoActionName, "undoActionName"),
            record(\.redoActionName, "redoActionName"),
        ]
        let tracked = Counter()
        withObservationTracking {
            _ = history.canUndo
        } onChange: {
            tracked.increment()
        }
        history.group(named: "Widen") { canvas.width = 2 }
        history.undo()
        #expect(tracked.current == 1)
        #expect(
            seen.withLock { $0 } == [
                "canUndo true", "undoActionName Widen", "canUndo false", "canRedo true", "undoActionName ",
                "redoActionName Widen",
            ])
        withExtendedLifetime(tokens) {}
    }

    @Test("recording holds neither the object nor the history; undoing a deallocated object's group does nothing")
    func lifetimes() {
        weak var weakCanvas: Canvas?
        weak var weakHistory: UndoHistory?
        let kept: UndoHistory
        do {
            let canvas = Canvas()
            weakCanvas = canvas
            kept = UndoHistory(recording: canvas)
            canvas.width = 2
            let released = UndoHistory(recording: canvas)
            weakHistory = released
        }
        #expect(weakCanvas == nil && weakHistory == nil)
        kept.undo()
        #expect(kept.canRedo)
        let canvas = Canvas()
        do {
            let history = UndoHistory(recording: canvas)
            canvas.width = 3
            #expect(history.canUndo)
        }
        #expect(canvas.observationsDescription.hasSuffix("no live observations"))
    }

    @Test("each thread's sets are grouped apart; every group is kept, and undoing them all restores the start")
    func concurrency() {
        nonisolated(unsafe) let canvas = Canvas()
        let history = UndoHistory(recording: canvas)
        runConcurrently([
            { for round in 1...200 { history.group(named: "w") { canvas.width = round } } },
            { for round in 1...200 { canvas.height = round } },
            { for round in 1...200 { canvas.title = "\(round)" } },
            { for _ in 1...200 { _ = history.canUndo } },
        ])
        var undone = 0
        while history.canUndo {
            history.undo()
            undone += 1
        }
        #expect(undone == 600)
        #expect(canvas.width == 1 && canvas.height == 1 && canvas.title == "")
    }

    #if canImport(Darwin)
    @Test("registered with an UndoManager: its undo and redo run the history's, with the group's name")
    @MainActor
    func undoManagerBridge() {
        let canvas = Canvas()
        let history = UndoHistory(recording: canvas)
        let manager = UndoManager()
        manager.groupsByEvent = false
        history.register(with: manager)
        manager.beginUndoGrouping()
        history.group(named: "Widen") { canvas.width = 2 }
        manager.endUndoGrouping()
        #expect(manager.canUndo)
        #expect(manager.undoActionName == "Widen")
        manager.undo()
        #expect(canvas.width == 1)
        #expect(manager.canRedo)
        manager.redo()
        #expect(canvas.width == 2)
        #expect(history.canUndo && !history.canRedo)
    }
    #endif
}
