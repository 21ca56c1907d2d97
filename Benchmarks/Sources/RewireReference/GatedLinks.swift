import Synchronization

/// A child's links as a set reads them without a lock, as the set and leaf-change targets need (a
/// lock and a copy per set cost what the "least guarded re-wire's own leaf change" row shows). A
/// reader count and a writing flag share one atomic word; a change, under a blocking lock, writes the
/// links in place while no set reads them, else publishes a copy and keeps the table it replaced
/// until a later change finds no set reading.
public final class GatedLinks<Link: ChildLink>: @unchecked Sendable {
    final class Table {
        @exclusivity(unchecked) var links: ContiguousArray<Link>

        init(_ links: ContiguousArray<Link>) { self.links = links }
    }

    /// Bit 0: a change writes the published table in place. The rest: sets reading, counted in twos.
    private let gate = Atomic<Int>(0)
    private let published: Atomic<Unmanaged<Table>>
    /// Serialises changes; holds the tables replaced while sets read them.
    private let changes = Mutex<[Table]>([])

    public init() {
        var links = ContiguousArray<Link>()
        links.reserveCapacity(8)
        published = Atomic(Unmanaged.passRetained(Table(links)))
    }

    deinit { published.load(ordering: .acquiring).release() }

    /// Tells each link, the table read in place: no lock, no retain.
    func notify(old: Int, new: Int) {
        while gate.wrappingAdd(2, ordering: .acquiring).newValue & 1 != 0 {
            // A change is writing in place: wait for it, blocking, on the lock it holds.
            gate.wrappingSubtract(2, ordering: .relaxed)
            changes.withLock { _ in }
        }
        published.load(ordering: .acquiring)._withUnsafeGuaranteedRef { table in
            table.links.withUnsafeBufferPointer { links in
                for link in links { link.leafChanged(old: old, new: new) }
            }
        }
        gate.wrappingSubtract(2, ordering: .releasing)
    }

    public func insert(_ link: Link) {
        change { links in
            link.index = links.count
            links.append(link)
        }
    }

    /// Removes `link` by swapping the last one into its place.
    public func remove(_ link: Link) {
        change { links in
            let last = links.removeLast()
            if last !== link {
                last.index = link.index
                links[link.index] = last
            }
        }
    }

    private func change(_ body: (inout ContiguousArray<Link>) -> Void) {
        changes.withLock { retired in
            if gate.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged {
                // No set reads any table now: those replaced earlier can go.
                if !retired.isEmpty { retired.removeAll() }
                published.load(ordering: .relaxed)._withUnsafeGuaranteedRef { body(&$0.links) }
                gate.wrappingSubtract(1, ordering: .releasing)
                return
            }
            let old = published.load(ordering: .relaxed)
            let copy = Table(old.takeUnretainedValue().links)
            body(&copy.links)
            published.store(Unmanaged.passRetained(copy), ordering: .releasing)
            retired.append(old.takeRetainedValue())
        }
    }
}
