/// The descriptions of live observations: of an observed object (``ObservedPropertyListing/observationsDescription``)
/// and of a controller (its `debugDescription`), as Cocoa's `observationInfo` and KVOController's
/// `debugDescription` list theirs.
enum ObservationListing {
    /// The live observations registered in `object`'s property lists, each once, in the order of
    /// its properties and then of registration.
    static func describe(_ object: AnyObject) -> String {
        let type: AnyClass = Swift.type(of: object)
        var order: [ObjectIdentifier] = []
        var found: [ObjectIdentifier: (summary: ObservationSummary, reads: [String])] = [:]
        for (name, offset) in ListedProperties.of(type)?.slots(in: object) ?? [] {
            guard let list = ListSlot.at(offset, in: object).pointee.existingObservers() else { continue }
            for entry in list.entries(of: ListEntry.self) where entry.isActive {
                let observation: AnyObservation =
                    (entry as? PathLink)?.observation ?? (entry as? PropertyEntry)?.observation ?? entry
                guard observation.isActive, let summary = observation.summary() else { continue }
                let id = ObjectIdentifier(observation)
                if found[id] == nil {
                    order.append(id)
                    found[id] = (summary, [])
                }
                found[id]?.reads.append(name)
            }
        }
        let lines = order.compactMap { found[$0] }.map { summary, reads in
            if summary.isWholeObject { return "  every property \(summary.options) \(summary.origin)" }
            var line =
                "  "
                + describe(
                    KeyPathDescription.of(summary.keyPath, rootType: summary.root?.type ?? type), summary.options,
                    summary.origin, isPath: summary.isPath)
            if summary.isPath {
                if let root = summary.root, root.id != ObjectIdentifier(object) {
                    line += " from \(root.type) \(UnsafeRawPointer(bitPattern: UInt(bitPattern: root.id))!)"
                }
                line += "; reads \(reads.joined(separator: ", "))"
            }
            return line
        }
        return header(name(of: object), lines)
    }

    /// `\Person.address?.city [.new] token, path`.
    static func describe(
        _ name: String, _ options: ObservationOptions, _ origin: ObservationOrigin, isPath: Bool
    ) -> String {
        "\(name) \(options) \(origin)\(isPath ? ", path" : "")"
    }

    /// `Person 0x…`: the class and the address, which tells instances apart.
    static func name(of object: AnyObject) -> String {
        "\(Swift.type(of: object)) \(Unmanaged.passUnretained(object).toOpaque())"
    }

    /// The first line, then one line per observation.
    static func header(_ subject: String, _ lines: [String]) -> String {
        switch lines.count {
        case 0: "\(subject): no live observations"
        case 1: "\(subject): 1 live observation\n" + lines[0]
        default: "\(subject): \(lines.count) live observations\n" + lines.joined(separator: "\n")
        }
    }
}

extension ObservedPropertyListing {
    /// The live observations of this object, for debugging: one line each, with the key path, the
    /// options and what made it (a token, a controller, a sequence; a path when it is nested or
    /// computed), like Cocoa's `observationInfo`.
    ///
    /// ```swift
    /// print(person.observationsDescription)
    /// // Person 0x0000600001234560: 2 live observations
    /// //   \Person.name [.old, .new] token
    /// //   \Person.address?.city [.new] controller, path; reads address, city
    /// ```
    ///
    /// A path rooted at another object is listed on each object it reads, with its root (`from
    /// Team 0x…`). A path's reads are the properties of this object it depends on now. Where the
    /// runtime cannot name a computed property (on Linux), its component reads `<computed 0x…>`,
    /// except for a key path of one `@Observed` property, which is named.
    public var observationsDescription: String {
        ObservationListing.describe(self)
    }
}

extension ObservationController: CustomDebugStringConvertible {
    /// The controller's live observations, for debugging (`String(reflecting: controller)`,
    /// `po controller`): its observer, then one line per observation, by observed object.
    ///
    /// ```
    /// ObservationController<ProfileView> of ProfileView 0x…, retaining: 2 live observations
    ///   Person 0x…: \Person.name [.old, .new] controller
    ///   Person 0x…: \Person.address?.city [.initial, .new] controller, path
    /// ```
    public var debugDescription: String {
        let observer = self.observer.map { ObservationListing.name(of: $0) } ?? "a released observer"
        let subject = "ObservationController<\(Observer.self)> of \(observer)\(retainsObserved ? ", retaining" : "")"
        let lines = liveObservations().flatMap { object, observed in
            let type: AnyClass = Swift.type(of: object)
            // Learns where the object's slots are, which the key paths' descriptions name.
            ListedProperties.learnSlots(of: object)
            let prefix = "  \(ObservationListing.name(of: object)): "
            return observed.map { key, options, isPath in
                prefix
                    + ObservationListing.describe(key.description(rootType: type), options, .controller, isPath: isPath)
            }.sorted()
        }
        return ObservationListing.header(subject, lines)
    }
}

extension KeyValueObservable {
    /// Unavailable for a class that `@KeyValueObservable` does not list: the listing finds the
    /// object's observations in its properties' lists.
    @available(
        *, unavailable,
        message:
            "observationsDescription finds properties in the list @KeyValueObservable writes: mark the class @KeyValueObservable"
    )
    public var observationsDescription: String {
        fatalError("unavailable")
    }
}
