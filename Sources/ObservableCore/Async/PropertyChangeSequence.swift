extension ObservedPropertyListing {
    /// The changes of every `@Observed` property of this object, as an asynchronous sequence: which
    /// property changed, without values (they need not be `Sendable`); buffered as
    /// ``KeyValueObservable/changes(of:options:bufferingPolicy:)`` is.
    ///
    /// - Parameter bufferingPolicy: What happens to changes the iterating task has not consumed yet.
    public func propertyChanges(
        bufferingPolicy: PropertyChangeSequence<Self>.BufferingPolicy = .unbounded
    ) -> PropertyChangeSequence<Self> {
        PropertyChangeSequence(root: self, deep: false, bufferingPolicy: bufferingPolicy)
    }

    /// The same, and with `deep: true` of every object it reaches; each element says where.
    ///
    /// - Parameters:
    ///   - deep: Whether the objects this one reaches are observed too.
    ///   - bufferingPolicy: What happens to changes the iterating task has not consumed yet.
    public func propertyChanges(
        deep: Bool, bufferingPolicy: PropertyChangeSequence<Self>.BufferingPolicy = .unbounded
    ) -> PropertyChangeSequence<Self> {
        PropertyChangeSequence(root: self, deep: deep, bufferingPolicy: bufferingPolicy)
    }
}

/// The asynchronous sequence returned by ``ObservedPropertyListing/propertyChanges(bufferingPolicy:)``.
public struct PropertyChangeSequence<Root: KeyValueObservable>: AsyncSequence {
    /// Each element is one change: the property, and the kind of change.
    public typealias Element = ChangedProperty
    /// The sequence never throws: it ends when the observed object is deallocated or the task is cancelled.
    public typealias Failure = Never
    /// What happens to changes not consumed yet: `AsyncStream`'s policies.
    public typealias BufferingPolicy = AsyncStream<ChangedProperty>.Continuation.BufferingPolicy

    private weak var root: Root?
    private let deep: Bool
    private let bufferingPolicy: BufferingPolicy

    init(root: Root, deep: Bool, bufferingPolicy: BufferingPolicy) {
        self.root = root
        self.deep = deep
        self.bufferingPolicy = bufferingPolicy
    }

    /// Starts observing; the observation lasts as long as the iteration.
    public func makeAsyncIterator() -> Iterator {
        let buffer = ChangeBuffer<Element>(bufferingPolicy)
        guard let root else {
            buffer.finish()
            return Iterator(ChangeIteration(buffer: buffer, token: nil))
        }
        let observation = ObjectObservations.register(
            root, options: [], deep: deep, origin: .sequence, onObservedDeallocated: { buffer.finish() }
        ) { _, change in
            buffer.yield(ChangedProperty(change))
        }
        if !observation.isActive { buffer.finish() }
        return Iterator(ChangeIteration(buffer: buffer, token: ObservationToken(observation)))
    }

    /// Iterates the changes; see ``ObservedPropertyListing/propertyChanges(bufferingPolicy:)``.
    public struct Iterator: AsyncIteratorProtocol {
        private let iteration: ChangeIteration<Element>

        init(_ iteration: ChangeIteration<Element>) {
            self.iteration = iteration
        }

        /// The next change, or `nil` once the observed object is deallocated or the task is cancelled.
        public mutating func next() async -> Element? {
            await iteration.next(isolation: nil)
        }

        /// The next change, resuming on `actor`; `nil` once the observed object is deallocated or the
        /// task is cancelled.
        public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
            await iteration.next(isolation: actor)
        }
    }
}

extension KeyValueObservable {
    /// Unavailable for a class that `@KeyValueObservable` does not list: the sequence finds the
    /// properties in its list.
    @available(
        *, unavailable,
        message:
            "propertyChanges finds properties in the list @KeyValueObservable writes: mark the class @KeyValueObservable"
    )
    public func propertyChanges(
        deep: Bool = false, bufferingPolicy: PropertyChangeSequence<Self>.BufferingPolicy = .unbounded
    ) -> PropertyChangeSequence<Self> {
        fatalError("unavailable")
    }
}
