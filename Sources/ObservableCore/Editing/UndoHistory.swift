import Observation

/// Undo and redo for the `@Observed` properties of an object, in pure Swift: each set is a group
/// with what its observers set in turn; ``group(named:_:)`` makes one of a body's sets. Undoing sets
/// the old values through the setters. ``canUndo`` and ``canRedo`` are observable; safe from any
/// thread (<doc:UnsavedChangesAndUndo>).
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

    // Published under the lock; each property also reads a signal (see `ChangeTracker`).
    private var canUndoSignal: Void = ()
    private var canRedoSignal: Void = ()
    private var undoNameSignal: Void = ()
    private var redoNameSignal: Void = ()

    @Unobserved private let lock = Lock()
    /// Guarded by `lock`.
    @Unobserved private var state = State()
    @Unobserved private var token: ObservationToken?

    /// Unavailable without the list `@KeyValueObservable` writes.
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
    ///   - deep: Whether the changes of the objects `object` reaches are recorded too.
    ///   - levelsOfUndo: How many groups are kept (the oldest go first); `0`, the default, keeps all.
    public init<Object: ObservedPropertyListing>(recording object: Object, deep: Bool = false, levelsOfUndo: Int = 0) {
        state.levels = max(levelsOfUndo, 0)
        token = ObservationToken(
            ObjectObservations.register(
                object, options: [.old, .new], deep: deep, origin: .token, watchesSetExtent: true,
                onObservedDeallocated: nil
            ) { [weak self] root, change in
                // A child's change holds its object; the root's is the handler's `root`, at hand.
                self?.record(change, of: change.changedObject ?? root)
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

    /// Makes one group of the changes `body` makes on this thread, named `name`; an inner group joins
    /// the outer one.
    @discardableResult
    public func group<Result>(named name: String = "", _ body: () throws -> Result) rethrows -> Result {
        let thread = ThreadIdentity.current
        lock.withLock { state.beginExplicitGroup(named: name, on: thread) }
        defer { endExplicitGroup(on: thread) }
        return try body()
    }

    /// Undoes the latest group, the last change first; does nothing inside a group or another undo.
    public func undo() {
        apply(.undo)
    }

    /// Redoes the latest undone group, in the order changed.
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

    /// Records a change into this thread's open group, or a new one closed when its set returns.
    private func record(_ change: PropertyChange, of object: AnyObject) {
        let thread = ThreadIdentity.current
        let opened = lock.withLock { state.record(change, of: object, on: thread) }
        guard opened else { return }
        // Not inside a set that counts its extent (a change announced by hand): the change alone.
        if !SetExtent.afterOutermostSet({ [weak self] in self?.setEnded(on: thread) }) {
            setEnded(on: thread)
        }
    }

    private func setEnded(on thread: UInt) {
        let closed = lock.withLock { state.setEnded(on: thread) }
        if let closed { didClose(closed) }
    }

    private func endExplicitGroup(on thread: UInt) {
        let closed = lock.withLock { state.endExplicitGroup(on: thread) }
        if let closed { didClose(closed) }
    }

    private func didClose(_ group: EditGroup) {
        publish()
        bridge?.register(self, group.name, as: .undo)
    }

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

    /// Publishes the stacks' state, and tells the observers of what changed (after the lock).
    private func publish() {
        let changed = lock.withLock { state.publish() }
        if changed.canUndo { canUndoSignal = () }
        if changed.canRedo { canRedoSignal = () }
        if changed.undoName { undoNameSignal = () }
        if changed.redoName { redoNameSignal = () }
    }

    /// The `UndoManager` each group is registered with, where Foundation has one.
    var bridge: UndoManagerRegistering? {
        get { lock.withLock { state.bridge } }
        set { lock.withLock { state.bridge = newValue } }
    }
}

/// Registers an undo history's groups with a platform undo manager (`UndoManagerBridge`).
protocol UndoManagerRegistering: AnyObject, Sendable {
    /// `group`'s undo (`.undo`) or redo (`.redo`), named `name`, was added to `history`.
    func register(_ history: UndoHistory, _ name: String, as action: UndoHistory.Direction)
}
