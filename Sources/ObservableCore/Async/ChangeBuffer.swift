/// The changes an iteration of a sequence has not consumed yet, and the task waiting for the next.
/// Not an `AsyncStream`, which suspends even when an element waits and is not specialised. Buffers as
/// `BufferingPolicy` says; `finish()` ends after what is buffered, `cancel()` at once.
@usableFromInline
final class ChangeBuffer<Element: Sendable>: @unchecked Sendable {
    @usableFromInline let lock = Lock()
    /// How many waiting elements are kept (`Int.max`: all), and, when full, whether the newest
    /// replaces the oldest (`bufferingNewest`) or is dropped (`bufferingOldest`).
    @usableFromInline let limit: Int
    @usableFromInline let keepsNewest: Bool
    // Guarded by `lock`, which is never held across a call out: run-time exclusivity checks are off.
    /// The waiting elements are `elements[head...]`; taken ones are `nil` until the array is compacted.
    @usableFromInline @exclusivity(unchecked) var elements: [Element?] = []
    @usableFromInline @exclusivity(unchecked) var head = 0
    /// The task suspended in `next`, when the buffer was empty.
    @usableFromInline @exclusivity(unchecked) var waiting: UnsafeContinuation<Element?, Never>?
    /// No element will be added: `next` returns what is buffered, then `nil`.
    @usableFromInline @exclusivity(unchecked) var finished = false

    @usableFromInline
    init(_ policy: AsyncStream<Element>.Continuation.BufferingPolicy) {
        switch policy {
        case .bufferingNewest(let limit):
            self.limit = max(limit, 0)
            keepsNewest = true
        case .bufferingOldest(let limit):
            self.limit = max(limit, 0)
            keepsNewest = false
        default:  // .unbounded
            limit = .max
            keepsNewest = false
        }
    }

    /// Hands `element` to the waiting task, or keeps it as the policy says.
    @inlinable
    func yield(_ element: Element) {
        let waiter = lock.withLock { () -> UnsafeContinuation<Element?, Never>? in
            if let waiting {
                self.waiting = nil
                return waiting
            }
            guard !finished else { return nil }
            if elements.count - head >= limit {
                guard keepsNewest, limit > 0 else { return nil }
                elements[head] = nil
                head += 1
                compact()
            }
            elements.append(element)
            return nil
        }
        waiter?.resume(returning: element)
    }

    /// Ends the sequence after the elements already buffered.
    @inlinable
    func finish() {
        let waiter = lock.withLock { () -> UnsafeContinuation<Element?, Never>? in
            finished = true
            defer { waiting = nil }
            return waiting
        }
        waiter?.resume(returning: nil)
    }

    /// Ends the sequence now, dropping what is buffered.
    @inlinable
    func cancel() {
        let (waiter, dropped) = lock.withLock { () -> (UnsafeContinuation<Element?, Never>?, [Element?]) in
            finished = true
            var dropped: [Element?] = []
            swap(&dropped, &elements)
            head = 0
            defer { waiting = nil }
            return (waiting, dropped)
        }
        waiter?.resume(returning: nil)
        withExtendedLifetime(dropped) {}  // released after the lock
    }

    /// The first waiting element, `.finished` once finished and empty, else `.empty`.
    @inlinable
    func takeNow() -> Taken {
        lock.withLock { take() }
    }

    /// Suspends until an element arrives or the buffer finishes (resuming on `actor`). Only one
    /// task may wait at a time, as with any iterator.
    @inlinable
    func wait(isolation actor: isolated (any Actor)?) async -> Element? {
        await withUnsafeContinuation(isolation: actor) { (continuation: UnsafeContinuation<Element?, Never>) in
            let taken = lock.withLock { () -> Taken in
                let taken = take()
                if case .empty = taken { waiting = continuation }
                return taken
            }
            switch taken {
            case .element(let element): continuation.resume(returning: element)
            case .finished: continuation.resume(returning: nil)
            case .empty: break
            }
        }
    }

    @usableFromInline
    enum Taken {
        case element(Element)
        case finished
        case empty
    }

    /// Under `lock`: takes the first waiting element.
    @inlinable
    func take() -> Taken {
        guard head < elements.count else { return finished ? .finished : .empty }
        let element = elements[head]!
        elements[head] = nil
        head += 1
        compact()
        return .element(element)
    }

    /// Under `lock`: drops the taken slots once they are all, or at least half, of the array
    /// (amortised constant time per element).
    @inlinable
    func compact() {
        if head == elements.count {
            elements.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 32 && head * 2 >= elements.count {
            elements.removeFirst(head)
            head = 0
        }
    }
}
