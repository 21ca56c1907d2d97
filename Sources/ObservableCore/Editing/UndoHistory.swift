import Observation

/// Undo and redo for the `@Observed` properties of an object, in pure Swift: every change is
/// recorded with its old value, grouped, and can be undone and redone. Foundation's `UndoManager`
/// fed by KVO, on Linux too (Foundation there has no `UndoManager`).
///
/// ```swift
/// let history = UndoHistory(recording: document)
/// document.title = "Minutes"
/// history.group(named: "Reformat") {
///     document.fontSize = 14
///     document.isBold = true
/// }
/// history.undo()        // fontSize and isBold back, in one step
/// history.undo()        // title back
/// history.redo()        // title "Minutes" again
/// ```
///
/// Groups: each set is a group of its own, and a set made before it returns (inside a callback of
/// one of its observers, a `didSet`, a handler that keeps a dependent property in step) joins it, so
/// undoing the set undoes its consequences too. ``group(named:_:)`` makes one group of everything
/// its body sets on the calling thread, named for the Undo menu (``undoActionName``). Repeated sets
/// of one property in a group coalesce: undoing the group restores the property's value from before
/// the first.
///
/// Undoing sets the old values through the setters, the group's last change first, so that
/// observers, `willSet`/`didSet` and SwiftUI see it; those sets, and the sets their observers make on
/// the undoing thread, are not recorded as changes: the group moves to the redo stack, which redoing
/// applies forward and moves back. A new change clears the redo stack. ``levelsOfUndo`` limits how
/// many groups are kept.
///
/// ``canUndo``, ``canRedo`` and the action names are observable, by
/// ``KeyValueObservable/observe(_:options:_:)`` and by Observation and SwiftUI (Undo and Redo buttons
/// enable themselves), and may be read from any thread. Recording holds neither the object nor the
/// history: it ends when the history is released. It is safe from any thread: each thread's sets
/// are grouped apart, and the history's stacks are guarded.
@KeyValueObservable
public final class UndoHistory: Observable, @unchecked Sendable {
    /// Whether there is a group to undo.
    public var canUndo: Bool {
        _ = canUndoSignal
        return lock.withLock { state.published.undoName != nil }
    }

    /// Whether there is a group to redo.
    public var canRedo: Bool {
        _ = canRedoSignal
        return lock.withLock { state.published.redoName != nil }
    }

    /// The name of the group ``undo()`` would undo (`""` for an unnamed group, or none).
    public var undoActionName: String {
        _ = undoNameSignal
        return lock.withLock { state.published.undoName ?? "" }
    }

    /// The name of the group ``redo()`` would redo (`""` for an unnamed group, or none).
    public var redoActionName: String {
        _ = redoNameSignal
        return lock.withLock { state.published.redoName ?? "" }
    }

    // The published state is kept under the lock, so that it may be read from any thread; each
    // property above also reads a signal, set when its value changes (see `ChangeTracker`).
    private var canUndoSignal: Void = ()
    private var canRedoSignal: Void = ()
    private var undoNameSignal: Void = ()
    private var redoNameSignal: Void = ()

    @Unobserved private let lock = Lock()
    /// Guarded by `lock`.
    @Unobserved private var state = State()
    @Unobserved private var token: ObservationToken?

    /// Unavailable for a class that `@KeyValueObservable` does not list: the UndoHistory finds the
    /// properties in its list.
    @available(
        *, unavailable,
        message:
            "UndoHistory finds properties in the list @KeyValueObservable writes: mark the class @KeyValueObservable"
    )
    public init<Object: KeyValueObservable>(recording object: Object, deep: Bool = false, levelsOfUndo: Int = 0) {
        fatalError("unavailable")
    }

    /// Starts recording every change of the `@Observed` properties of `object`.
    ///
    /// - Parameters:
    ///   - object: What to record; not kept alive.
    ///   - deep: Whether the changes of the objects `object` reaches are recorded too, as
    ///     ``ObservedPropertyListing/observeProperties(options:deep:_:)`` follows them: adding an object
    ///     to an array is one change, undone by removing it; its own changes are recorded from then on.
    ///   - levelsOfUndo: How many groups are kept (the oldest go first); `0`, the default, keeps all.
    public init<Object: ObservedPropertyListing>(recording object: Object, deep: Bool = false, levelsOfUndo: Int = 0) {
        state.levels = max(levelsOfUndo, 0)
        token = ObservationToken(
            ObjectObservations.register(
                object, options: [.old, .new], deep: deep, origin: .token, watchesSetExtent: true,
                onObservedDeallocated: nil
            ) { [weak self] root, change in
                self?.record(change, of: change.object ?? root)
            })
    }

    deinit {
        token?.cancel()
    }

    /// How many groups are kept, the oldest dropped first; `0` keeps all.
    public var levelsOfUndo: Int {
        get { lock.withLock { state.levels } }
        set {
            lock.withLock {
                state.levels = max(newValue, 0)
                state.trim()
            }
            publish()
        }
    }

    /// Makes one group of the changes `body` makes on this thread, named `name` (the Undo menu's
    /// "Undo \(name)"). Groups nest: an inner group is part of the outer one, which keeps its name
    /// (or takes the inner one's when it has none).
    @discardableResult
    public func group<Result>(named name: String = "", _ body: () throws -> Result) rethrows -> Result {
        let thread = ThreadIdentity.current
        lock.withLock { state.beginExplicitGroup(named: name, on: thread) }
        defer { endExplicitGroup(on: thread) }
        return try body()
    }

    /// Undoes the latest group: sets each property it changed back to its value before the group,
    /// the last change first. Does nothing when there is none, or while this thread is inside a
    /// group or another undo.
    public func undo() {
        apply(.undo)
    }

    /// Redoes the latest undone group: sets each property it changed to its value after the group,
    /// in the order changed.
    public func redo() {
        apply(.redo)
    }

    /// Forgets every group, to undo and to redo.
    public func removeAllActions() {
        lock.withLock {
            state.undoStack = []
            state.redoStack = []
        }
        publish()
    }

    // MARK: Recording

    /// Records a change heard by the recording observation, into the group open on this thread or a
    /// new one, which closes when the set that made it returns.
    private func record(_ change: PropertyChange, of object: AnyObject) {
        let thread = ThreadIdentity.current
        let opened = lock.withLock { state.record(change, of: object, on: thread) }
        guard opened else { return }
        // Not inside a set that counts its extent (a change announced by hand): the change alone.
        if !SetExtent.afterOutermostSet({ [weak self] in self?.setEnded(on: thread) }) {
            setEnded(on: thread)
        }
    }

    /// The set that opened this thread's group returned.
    private func setEnded(on thread: UInt) {
        let closed = lock.withLock { state.setEnded(on: thread) }
        if let closed { didClose(closed) }
    }

    private func endExplicitGroup(on thread: UInt) {
        let closed = lock.withLock { state.endExplicitGroup(on: thread) }
        if let closed { didClose(closed) }
    }

    /// A group was pushed on the undo stack.
    private func didClose(_ group: EditGroup) {
        publish()
        bridge?.register(self, group.name, as: .undo)
    }

    // MARK: Undoing and redoing

    enum Direction {
        case undo
        case redo
    }

    private func apply(_ direction: Direction) {
        let thread = ThreadIdentity.current
        guard let group = lock.withLock({ state.beginApplying(direction, on: thread) }) else { return }
        // After the lock: the sets run their observers.
        let edits = direction == .undo ? group.edits.reversed() : group.edits
        for edit in edits {
            guard let object = edit.object.object, let key = edit.property._withUnsafeGuaranteedRef({ $0.key })
            else { continue }
            _ = key.set(direction == .undo ? edit.old : edit.new, on: object)
        }
        lock.withLock { state.endApplying(direction, group) }
        publish()
        bridge?.register(self, group.name, as: direction == .undo ? .redo : .undo)
    }

    // MARK: Publishing

    /// Publishes the stacks' state, and tells the observers of what changed (after the lock).
    private func publish() {
        let changed = lock.withLock { state.publish() }
        if changed.canUndo { canUndoSignal = () }
        if changed.canRedo { canRedoSignal = () }
        if changed.undoName { undoNameSignal = () }
        if changed.redoName { redoNameSignal = () }
    }

    /// The `UndoManager` each group is registered with, where Foundation has one (see
    /// `UndoManagerBridge`).
    var bridge: UndoManagerRegistering? {
        get { lock.withLock { state.bridge } }
        set { lock.withLock { state.bridge = newValue } }
    }
}

/// Registers an undo history's groups with a platform undo manager (`UndoManagerBridge`, where
/// Foundation has `UndoManager`).
protocol UndoManagerRegistering: AnyObject, Sendable {
    /// `group`'s undo (`.undo`) or redo (`.redo`), named `name`, was added to `history`.
    func register(_ history: UndoHistory, _ name: String, as action: UndoHistory.Direction)
}
