/// A path observation's links in order: the first inline, any more in an array, so that a path of
/// two properties (most; the observation itself is the first one's entry, see `PathLinks`) keeps its
/// link, and moves it, without allocating. Kept under the observation's lock.
struct LinkStorage: RandomAccessCollection {
    private var first: PathLink?
    private var more: [PathLink] = []

    var startIndex: Int { 0 }
    var endIndex: Int { first == nil ? 0 : 1 + more.count }

    @inline(__always)
    subscript(index: Int) -> PathLink {
        index == 0 ? first.unsafelyUnwrapped : more[index - 1]
    }

    @inline(__always)
    mutating func append(_ link: PathLink) {
        if first == nil {
            first = link
        } else {
            more.append(link)
        }
    }

    /// Removes the link at `index`; those after it move up.
    mutating func remove(at index: Int) -> PathLink {
        let removed = self[index]
        if index == 0 {
            first = more.isEmpty ? nil : more.removeFirst()
        } else {
            more.remove(at: index - 1)
        }
        return removed
    }
}
