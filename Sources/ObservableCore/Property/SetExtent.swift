/// The sets of watched lists running on this thread, outermost first, and what waits for the
/// outermost to end: how an undo history groups a set with its observers' sets. Sets nest like calls.
final class SetExtent {
    private var lists: [ObjectIdentifier] = []
    private var whenOutermostEnds: [() -> Void] = []

    /// A set of the list whose identity is `list` begins on this thread.
    static func enter(_ list: ObjectIdentifier) {
        let extent: SetExtent
        if let current = ThreadLocal.get(.setExtent, as: SetExtent.self) {
            extent = current
        } else {
            extent = SetExtent()
            ThreadLocal.exchange(.setExtent, extent)
        }
        extent.lists.append(list)
    }

    /// A set of `list` ends; when outermost, what waited runs (user code).
    static func leave(_ list: ObjectIdentifier) {
        guard let extent = ThreadLocal.get(.setExtent, as: SetExtent.self),
            extent.lists.last == list
        else { return }
        extent.lists.removeLast()
        guard extent.lists.isEmpty else { return }
        while !extent.whenOutermostEnds.isEmpty {
            let actions = extent.whenOutermostEnds
            extent.whenOutermostEnds = []
            for action in actions { action() }
        }
    }

    /// Runs `action` when the outermost set of a watched list running on this thread ends; `false`
    /// (and `action` not kept) when none is running.
    static func afterOutermostSet(_ action: @escaping () -> Void) -> Bool {
        guard let extent = ThreadLocal.get(.setExtent, as: SetExtent.self), !extent.lists.isEmpty else {
            return false
        }
        extent.whenOutermostEnds.append(action)
        return true
    }
}
