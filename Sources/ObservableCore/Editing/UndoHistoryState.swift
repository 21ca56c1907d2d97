// What an undo history keeps under its lock: the undo and redo stacks of edit groups, the group
// open on each thread, and the rules that move groups between them (`UndoHistory` announces the
// results).
extension UndoHistory {
    /// One change of one property in a group: its values before and after.
    struct Edit {
        let id: ChangeID
        let object: WeakObject
        let property: Unmanaged<ObjectProperty>
        let old: Any?
        var new: Any?
    }

    /// Which property of which object.
    struct ChangeID: Hashable {
        let object: ObjectIdentifier
        let property: ObjectIdentifier
    }

    /// What one undo undoes: changes in the order made, one per property (later sets coalesced).
    struct EditGroup {
        var name: String
        var edits: [Edit] = []

        mutating func add(_ change: PropertyChange, of object: AnyObject) {
            let id = ChangeID(
                object: ObjectIdentifier(object), property: ObjectIdentifier(change.property.takeUnretainedValue()))
            if let index = edits.firstIndex(where: { $0.id == id }) {
                edits[index].new = change.newValue
            } else {
                edits.append(
                    Edit(
                        id: id, object: WeakObject(object), property: change.property, old: change.oldValue,
                        new: change.newValue))
            }
        }
    }

    /// The group open on one thread: its explicit nesting, and whether a set it began in runs still.
    struct OpenGroup {
        var group: EditGroup
        var explicitDepth: Int
        var waitsForSetEnd: Bool

        var isDone: Bool { explicitDepth == 0 && !waitsForSetEnd }
    }

    /// Everything the history keeps, guarded by its lock.
    struct State {
        var undoStack: [EditGroup] = []
        var redoStack: [EditGroup] = []
        /// The group open on each thread.
        var open: [UInt: OpenGroup] = [:]
        /// The thread undoing or redoing: its changes are not recorded.
        var applying: UInt?
        var levels = 0
        var bridge: UndoManagerRegistering?
        /// What the history's properties show: the top groups' names when last published.
        private(set) var published = Published()

        struct Published {
            var undoName: String?
            var redoName: String?
        }

        /// Takes the stacks' state as published; which of the history's properties changed.
        mutating func publish() -> (canUndo: Bool, canRedo: Bool, undoName: Bool, redoName: Bool) {
            let now = Published(undoName: undoStack.last?.name, redoName: redoStack.last?.name)
            defer { published = now }
            return (
                (now.undoName == nil) != (published.undoName == nil),
                (now.redoName == nil) != (published.redoName == nil),
                (now.undoName ?? "") != (published.undoName ?? ""), (now.redoName ?? "") != (published.redoName ?? "")
            )
        }

        /// Adds the change to the thread's open group; `true` when it opened a new one.
        mutating func record(_ change: PropertyChange, of object: AnyObject, on thread: UInt) -> Bool {
            if applying == thread { return false }
            if var group = open[thread] {
                group.group.add(change, of: object)
                open[thread] = group
                return false
            }
            var group = EditGroup(name: "")
            group.add(change, of: object)
            open[thread] = OpenGroup(group: group, explicitDepth: 0, waitsForSetEnd: true)
            return true
        }

        mutating func setEnded(on thread: UInt) -> EditGroup? {
            guard var group = open[thread] else { return nil }
            group.waitsForSetEnd = false
            return closeIfDone(group, on: thread)
        }

        mutating func beginExplicitGroup(named name: String, on thread: UInt) {
            var group = open[thread] ?? OpenGroup(group: EditGroup(name: name), explicitDepth: 0, waitsForSetEnd: false)
            if group.group.name.isEmpty { group.group.name = name }
            group.explicitDepth += 1
            open[thread] = group
        }

        mutating func endExplicitGroup(on thread: UInt) -> EditGroup? {
            guard var group = open[thread] else { return nil }
            group.explicitDepth -= 1
            return closeIfDone(group, on: thread)
        }

        /// Keeps `group` open, or closes it onto the undo stack (when it changed anything), which
        /// clears the redo stack; returns the group pushed.
        private mutating func closeIfDone(_ group: OpenGroup, on thread: UInt) -> EditGroup? {
            guard group.isDone else {
                open[thread] = group
                return nil
            }
            open[thread] = nil
            guard !group.group.edits.isEmpty else { return nil }
            undoStack.append(group.group)
            redoStack = []
            trim()
            return group.group
        }

        /// Drops the oldest groups beyond `levels`.
        mutating func trim() {
            if levels > 0, undoStack.count > levels { undoStack.removeFirst(undoStack.count - levels) }
        }

        /// Takes the group to undo or redo, unless another undo runs or this thread has a group open.
        mutating func beginApplying(_ direction: Direction, on thread: UInt) -> EditGroup? {
            guard applying == nil, open[thread] == nil else { return nil }
            let group = direction == .undo ? undoStack.popLast() : redoStack.popLast()
            if group != nil { applying = thread }
            return group
        }

        mutating func endApplying(_ direction: Direction, _ group: EditGroup) {
            applying = nil
            if direction == .undo {
                redoStack.append(group)
            } else {
                undoStack.append(group)
                trim()
            }
        }
    }
}
