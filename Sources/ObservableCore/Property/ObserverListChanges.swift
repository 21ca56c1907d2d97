/// What changes a list, under its lock, never calling user code: entries added and removed, the
/// key learnt, the list ended. A change writes the table in place when no set reads it, else a copy
/// it publishes (`ReadGate`).
extension ObserverList {
    /// Runs `body` on the table under `lock`, in place when no set reads it, else on a copy. Always
    /// inlined: as a call, its captures would be retained.
    @inline(__always)
    private func change<Result>(minimumCapacity: Int, _ body: (inout EntryTable) -> Result) -> (Result, FreedTables) {
        if gate.tryBeginWriting() {
            let freed = takeRetired()
            if table.capacity < minimumCapacity {
                table = table.grown(to: Swift.max(minimumCapacity, table.capacity * 2))
            }
            let result = body(&table)
            Self.shrinkIfEmpty(&table)
            published.store(table.raw, ordering: .relaxed)
            gate.endWriting()
            return (result, freed)
        }
        // Sets are reading: change a copy, publish it, and retire the old one for the last reader.
        var copy = table.copy(capacity: Swift.max(minimumCapacity, table.capacity))
        let result = body(&copy)
        Self.shrinkIfEmpty(&copy)
        retired.append(table)
        table = copy
        published.store(table.raw, ordering: .releasing)
        // Every reader left before the flag was set, so none will free them: this change does.
        let freed = gate.markRetired() ? takeRetired() : nil
        return (result, freed)
    }

    /// A large table left empty is freed; a small one is kept for the next observation.
    private static func shrinkIfEmpty(_ table: inout EntryTable) {
        guard table.count == 0, table.capacity > 16 else { return }
        table.deallocate()
        table = EntryTable.allocate(capacity: 4)
    }

    /// Under `lock` (or an owned entry's owner's): counts an entry, or a wait for the key, in
    /// `willChangeCount` (`by` 1) or no longer (-1). A count is added before the table that holds its
    /// entry is published and taken away after, so a set that reads the entry reads its count. Atomic:
    /// a path's leaf link is counted without the lock (`setCountsForWillChange(ownedEntry:_:)`).
    private func countForWillChange(by delta: Int32) {
        willChangeCount.wrappingAdd(delta, ordering: .releasing)
    }

    /// Adds `entry` at the end; `false` if the instance is being deallocated.
    func add(_ entry: ListEntry, awaitingKey awaits: Bool = false) -> Bool {
        let (added, freed): (Bool, FreedTables) = lock.withLock {
            if isEnded { return (false, nil) }
            if entry.countsForWillChange { countForWillChange(by: 1) }
            if awaits, !awaitingKey.load(ordering: .relaxed) {
                awaitingKey.store(true, ordering: .relaxed)
                countForWillChange(by: 1)
            }
            return change(minimumCapacity: table.count + 1) { table in
                entry.index = table.count
                table.append(entry)
                liveCount.store(liveCount.load(ordering: .relaxed) + 1, ordering: .relaxed)
                return true
            }
        }
        Self.destroy(freed)
        return added
    }

    /// Removes `entry` if it is still registered; safe to call any number of times.
    func remove(_ entry: ListEntry) {
        let (removed, freed): (Unmanaged<ListEntry>?, FreedTables) = lock.withLock {
            guard isRegistered(entry) else { return (nil, nil) }
            let index = entry.index
            let outcome = change(minimumCapacity: 0) { table in
                let removed = table.take(at: index)
                entry.index = -1
                let live = liveCount.load(ordering: .relaxed) - 1
                liveCount.store(live, ordering: .relaxed)
                if index == table.count - 1 {
                    // Cancelling the newest observation (the observe/cancel pattern) leaves no hole.
                    table.trimTrailingHoles()
                } else if table.count >= 16 && live * 2 < table.count {
                    table.compact()
                }
                return removed
            }
            if entry.countsForWillChange { countForWillChange(by: -1) }
            return outcome
        }
        Self.destroy(freed)
        // Possibly the last reference to the entry and to what its handler captured: after the lock.
        removed?.release()
    }

    @usableFromInline @inline(never)
    func learn(_ key: ObservedPropertyKey) {
        lock.withLock {
            guard awaitingKey.load(ordering: .relaxed), !isEnded else { return }
            awaitingKey.store(false, ordering: .relaxed)
            for index in 0..<table.count {
                table[index]?._withUnsafeGuaranteedRef { $0.learn(key) }
            }
            countForWillChange(by: -1)
        }
    }

    /// Counts `entry` in `willChangeCount` or not, for sets that begin afterwards: the table is not
    /// changed.
    func setCountsForWillChange(_ entry: ListEntry, _ counts: Bool) {
        lock.withLock {
            guard isRegistered(entry) else { return }
            setCountsForWillChange(ownedEntry: entry, counts)
        }
    }

    /// `setCountsForWillChange` without the list's lock, for an entry whose owner's lock serialises
    /// its additions, removals and counting (a path's leaf link, under its observation's). On a list
    /// that has ended the count no longer matters: no set reads it.
    func setCountsForWillChange(ownedEntry entry: ListEntry, _ counts: Bool) {
        guard entry.countsForWillChange != counts else { return }
        entry.countsForWillChange = counts
        countForWillChange(by: counts ? 1 : -1)
    }

    private func isRegistered(_ entry: ListEntry) -> Bool {
        let index = entry.index
        return !isEnded && index >= 0 && index < table.count
            && table[index]?.toOpaque() == Unmanaged.passUnretained(entry).toOpaque()
    }

    /// Ends the list: called once, by the slot, when the observed instance is deallocated.
    func end() {
        let (ended, freed): ([Unmanaged<ListEntry>], FreedTables) = lock.withLock {
            isEnded = true
            let ended = change(minimumCapacity: 0) { table in
                liveCount.store(0, ordering: .relaxed)
                return table.takeAll()
            }
            willChangeCount.store(0, ordering: .releasing)
            return ended
        }
        Self.destroy(freed)
        for entry in ended {
            entry.takeRetainedValue().listEnded()
        }
    }

    /// The entries now in the list, each retained again (`RetainedEntries` releases them).
    func retainEntries() -> ContiguousArray<Unmanaged<ListEntry>?> {
        lock.withLock { table.retainedEntries() }
    }

    func entries<Entry: ListEntry>(of _: Entry.Type) -> [Entry] {
        lock.withLock {
            (0..<table.count).compactMap { index in
                table[index].flatMap { $0.takeUnretainedValue() as? Entry }
            }
        }
    }
}
