import Synchronization

/// What a child's list holds: one observation's link, told of each change of the leaf.
public protocol ChildLink: AnyObject, Sendable {
    /// Its index in the list that holds it, for a removal without a search; under that list's lock.
    var index: Int { get set }
    func leafChanged(old: Int, new: Int)
}

/// A child's links under a blocking lock, shared by both references.
public final class ChildLinks<Link: ChildLink>: Sendable {
    private let links = Mutex(ContiguousArray<Link>())

    public init() { links.withLock { $0.reserveCapacity(8) } }

    /// Tells each link, outside the lock (the links are copied out: a retain).
    func notify(old: Int, new: Int) {
        for link in links.withLock({ $0 }) { link.leafChanged(old: old, new: new) }
    }

    public func insert(_ link: Link) {
        links.withLock { links in
            link.index = links.count
            links.append(link)
        }
    }

    /// Removes `link` by swapping the last one into its place.
    public func remove(_ link: Link) {
        links.withLock { links in
            let last = links.removeLast()
            if last !== link {
                last.index = link.index
                links[link.index] = last
            }
        }
    }
}

/// The path's intermediate object: its leaf and who observes the leaf.
public final class LinkedChild<Link: ChildLink>: @unchecked Sendable {
    public let observers = ChildLinks<Link>()
    @exclusivity(unchecked) public var leaf = 0 {
        didSet { observers.notify(old: oldValue, new: leaf) }
    }

    public init() {}
}
