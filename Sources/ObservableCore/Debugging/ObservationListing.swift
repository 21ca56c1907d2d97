/// The descriptions of live observations, of an object and of a controller.
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
    /// The live observations of this object, one line each with the key path, options and origin, like
    /// Cocoa's `observationInfo` (<doc:DebuggingAndTesting>).
    public var observationsDescription: String {
        ObservationListing.describe(self)
    }
}

extension ObservationController: CustomDebugStringConvertible {
    /// The controller's live observations (`po controller`): its observer, then one line each.
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
