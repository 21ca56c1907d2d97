#if canImport(Darwin)
import Foundation

extension UndoHistory {
    /// Registers each group of this history with `undoManager` from now on, so that the app's Undo
    /// and Redo (the Edit menu, ⌘Z, a shake) undo and redo it, named by the group's name.
    ///
    /// ```swift
    /// history.register(with: window.undoManager!)
    /// ```
    ///
    /// Undo and redo through the undo manager then: a direct ``undo()`` is not told to it. With
    /// `groupsByEvent` (the default), the undo manager's own group for one event may hold several of
    /// this history's groups, and undoes them together. A group made on another thread is registered
    /// on the main thread, after the groups before it. The undo manager holds this history weakly.
    @MainActor
    public func register(with undoManager: UndoManager) {
        bridge = UndoManagerBridge(undoManager)
    }
}

/// Registers an undo history's groups with an `UndoManager`: a new group, and each undo and redo
/// the undo manager runs (which it expects to register their inverse while it runs them).
/// `@unchecked`: `manager` is used on the main actor only.
final class UndoManagerBridge: UndoManagerRegistering, @unchecked Sendable {
    private weak var manager: UndoManager?

    @MainActor
    init(_ manager: UndoManager) {
        self.manager = manager
    }

    func register(_ history: UndoHistory, _ name: String, as action: UndoHistory.Direction) {
        let register: @MainActor @Sendable () -> Void = { [weak self, weak history] in
            guard let manager = self?.manager, let history else { return }
            let runsAnAction = manager.isUndoing || manager.isRedoing
            // An undo the history ran itself, not through the undo manager: nothing to tell it.
            if !runsAnAction, action == .redo { return }
            // The target is the manager, which outlives its own actions; the history may not.
            manager.registerUndo(withTarget: manager) { [weak history] _ in
                switch action {
                case .undo: history?.undo()
                case .redo: history?.redo()
                }
            }
            if !name.isEmpty { manager.setActionName(name) }
        }
        if Thread.isMainThread {
            MainActor.assumeIsolated { register() }
        } else {
            DispatchQueue.main.async { MainActor.assumeIsolated { register() } }
        }
    }
}
#endif
