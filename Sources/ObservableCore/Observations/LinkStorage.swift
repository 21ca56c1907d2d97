/// A path observation's links in order: the first two inline, any more in an array, so that a path
/// of one or two properties (most) keeps its links, and moves them, without allocating. Kept under
/// the observation's lock.
struct LinkStorage: RandomAccessCollection {
    private var first: PathLink?
    private var second: PathLink?
    private var more: [PathLink] = []

    var startIndex: Int { 0 }
    var endIndex: Int { first == nil ? 0 : second == nil ? 1 : 2 + more.count }

    @inline(__always)
    subscript(index: Int) -> PathLink {
        switch index {
        case 0: first.unsafelyUnwrapped
        case 1: second.unsafelyUnwrapped
        default: more[index - 2]
        }
    }

    @inline(__always)
    mutating func append(_ link: PathLink) {
        if first == nil {
            first = link
        } else if second == nil {
            second = link
        } else {
            more.append(link)
        }
    }

    /// Removes the link at `index`; those after it move up.
    mutating func remove(at index: Int) -> PathLink {
        let removed = self[index]
        if index < 2 {
            if index == 0 { first = second }
            second = more.isEmpty ? nil : more.removeFirst()
        } else {
            more.remove(at: index - 2)
        }
        return removed
    }
}
