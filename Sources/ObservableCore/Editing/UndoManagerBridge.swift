#if canImport(Darwin)
import Foundation

extension UndoHistory {
    /// Registers each group of this history with `undoManager` from now on, so that the app's Undo and
    /// Redo undo and redo it, by name; held weakly. Groups from other threads register on the main one.
    @MainActor
    public func register(with undoManager: UndoManager) {
        bridge = UndoManagerBridge(undoManager)
    }
}

/// Registers a history's groups, and the inverse of each undo and redo, with an `UndoManager`.
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
