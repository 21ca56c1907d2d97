extension KeyValueObservable {
    /// The changes of the value at `keyPath`, as an asynchronous sequence (`for await change in
    /// person.changes(of: \.name)`).
    ///
    /// Each iteration observes from its start with the semantics of ``observe(_:options:_:)``, and
    /// ends when this object is deallocated, the task is cancelled or the loop is left. Values must be
    /// `Sendable`. Changes wait in a buffer; `.bufferingNewest(1)` on a computed property coalesces
    /// (<doc:SequencesAndActors>).
    ///
    /// - Parameters:
    ///   - keyPath: What to observe, rooted at this object.
    ///   - options: What each change carries; `[.new]` by default.
    ///   - bufferingPolicy: What happens to changes the iterating task has not consumed yet.
    public func changes<Value: Sendable>(
        of keyPath: KeyPath<Self, Value>,
        options: ObservationOptions = [.new],
        bufferingPolicy: ObservedChangeSequence<Self, Value>.BufferingPolicy = .unbounded
    ) -> ObservedChangeSequence<Self, Value> {
        ObservedChangeSequence(root: self, keyPath: keyPath, options: options, bufferingPolicy: bufferingPolicy)
    }
}

/// The asynchronous sequence of changes returned by ``KeyValueObservable/changes(of:options:bufferingPolicy:)``.
public struct ObservedChangeSequence<Root: KeyValueObservable, Value: Sendable>: AsyncSequence {
    /// Each element is one change, as a handler given the same options would receive it.
    public typealias Element = ObservedChange<Value>
    /// The sequence never throws: it ends when the observed object is deallocated or the task is cancelled.
    public typealias Failure = Never
    /// What happens to changes not consumed yet: `AsyncStream`'s policies.
    public typealias BufferingPolicy = AsyncStream<ObservedChange<Value>>.Continuation.BufferingPolicy

    @usableFromInline weak var root: Root?
    @usableFromInline let keyPath: KeyPath<Root, Value>
    @usableFromInline let options: ObservationOptions
    @usableFromInline let bufferingPolicy: BufferingPolicy

    init(root: Root, keyPath: KeyPath<Root, Value>, options: ObservationOptions, bufferingPolicy: BufferingPolicy) {
        self.root = root
        self.keyPath = keyPath
        self.options = options
        self.bufferingPolicy = bufferingPolicy
    }

    /// Starts observing; the observation lasts as long as the iteration.
    @inlinable
    public func makeAsyncIterator() -> Iterator {
        // Inlinable, with the buffer: specialised for `Value` where the sequence is iterated.
        let buffer = ChangeBuffer<Element>(bufferingPolicy)
        guard let root else {
            buffer.finish()
            return Iterator(ChangeIteration(buffer: buffer, token: nil))
        }
        // Changes are produced on the setting threads and consumed by the iterating task, hence
        // `Value: Sendable`.
        let observation = Registration.register(
            root, keyPath, options: options, origin: .sequence, onObservedDeallocated: { buffer.finish() },
            handler: { _, change in buffer.yield(change) })
        // Inactive from the start: the path reads no @Observed property, or the object is going.
        if !observation.isActive { buffer.finish() }
        return Iterator(ChangeIteration(buffer: buffer, token: ObservationToken(observation)))
    }

    /// Iterates the changes; see ``KeyValueObservable/changes(of:options:bufferingPolicy:)``.
    public struct Iterator: AsyncIteratorProtocol {
        @usableFromInline let iteration: ChangeIteration<Element>

        @usableFromInline
        init(_ iteration: ChangeIteration<Element>) {
            self.iteration = iteration
        }

        /// The next change, or `nil` once the observed object is deallocated or the task is cancelled.
        @inlinable
        public mutating func next() async -> Element? {
            await iteration.next(isolation: nil)
        }

        /// The next change, resuming on `actor`; `nil` once the observed object is deallocated or the task
        /// is cancelled.
        @inlinable
        public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
            await iteration.next(isolation: actor)
        }
    }
}

/// One iteration of an `ObservedChangeSequence`: its buffer and its observation, which ends when the
/// iteration is cancelled or left (this object, held only by the iterator, goes).
@usableFromInline
final class ChangeIteration<Element: Sendable>: Sendable {
    @usableFromInline let buffer: ChangeBuffer<Element>
    @usableFromInline let token: ObservationToken?

    @usableFromInline
    init(buffer: ChangeBuffer<Element>, token: ObservationToken?) {
        self.buffer = buffer
        self.token = token
    }

    deinit {
        token?.cancel()
    }

    /// A waiting element without suspending; else waits for one. A cancelled task gets `nil` at once,
    /// as from an `AsyncStream`, and ends the observation.
    @inlinable
    func next(isolation actor: isolated (any Actor)?) async -> Element? {
        if Task.isCancelled {
            cancel()
            return nil
        }
        switch buffer.takeNow() {
        case .element(let element): return element
        case .finished: return nil
        case .empty: break
        }
        return await withTaskCancellationHandler {
            await buffer.wait(isolation: actor)
        } onCancel: {
            self.cancel()
        }
    }

    /// The task was cancelled: the sequence ends now, with its observation.
    @usableFromInline
    func cancel() {
        token?.cancel()
        buffer.cancel()
    }
}
