import ObservableCore

// String key paths against the typed observation of the same property, in the same run. No peer
// that runs here can observe by string (Cocoa KVO needs the Objective-C runtime), so the typed
// observation is the reference.

func stringKeyPathBenchmarks() -> [Benchmark] {
    let sink = Tally()
    let typedModel = ObservedModel()
    let stringModel = ObservedModel()
    let typedToken = typedModel.observe(\.value, options: [.old, .new]) { _, change in
        sink.count &+= change.oldValue! &+ change.newValue!
    }
    // The handler reads the values as the typed one does; a string observation's are `Any`.
    let stringToken = try! stringModel.observe(keyPath: "value", options: [.old, .new]) { _, change in
        sink.count &+= (change.oldValue as! Int) &+ (change.newValue as! Int)
    }
    // The floor of a delivery through the entry's notify function, which a string observation takes:
    // options other than the default keep a typed observation off the set's inline delivery.
    let notifiedModel = ObservedModel()
    let notifiedToken = notifiedModel.observe(\.value, options: [.old, .new, .initial]) { _, change in
        sink.count &+= (change.oldValue ?? 0) &+ change.newValue!
    }
    // The same, the handler reading the values as the type it knows they have.
    let typedReadModel = ObservedModel()
    let typedReadToken = try! typedReadModel.observe(keyPath: "value", options: [.old, .new]) { _, change in
        sink.count &+= change.oldValue(as: Int.self)! &+ change.newValue(as: Int.self)!
    }
    // The floor of any design that hands values on as `Any`: the typed observation, its values
    // made `Any` and cast back by the handler as the string one's are.
    let anyModel = ObservedModel()
    let anyToken = anyModel.observe(\.value, options: [.old, .new]) { _, change in
        let (old, new) = valuesAsAny(change)
        sink.count &+= (old as! Int) &+ (new as! Int)
    }
    // A `String` property: its values are kept as `Any`, not as bytes.
    let names = ["Ada", "Grace"]
    let typedNamed = NamedModel()
    let typedNameToken = typedNamed.observe(\.name, options: [.old, .new]) { _, change in
        sink.count &+= change.newValue!.utf8.count
    }
    let stringNamed = NamedModel()
    let stringNameToken = try! stringNamed.observe(keyPath: "name", options: [.old, .new]) { _, change in
        sink.count &+= change.newValue(as: String.self)!.utf8.count
    }
    let observed = ObservedModel()
    return [
        Benchmark(group: "string key path: set, 1 observer", name: Name.observed + " \\.value (typed)") { n in
            for i in 0..<n { typedModel.value = i }
            blackHole(sink.count)
            withExtendedLifetime(typedToken) {}
        },
        Benchmark(
            group: "string key path: set, 1 observer",
            name: Name.observed + " \\.value (typed, [.old, .new, .initial]: through notify)"
        ) { n in
            for i in 0..<n { notifiedModel.value = i }
            blackHole(sink.count)
            withExtendedLifetime(notifiedToken) {}
        },
        Benchmark(group: "string key path: set, 1 observer", name: Name.observed + " \\.value, values as Any") { n in
            for i in 0..<n { anyModel.value = i }
            blackHole(sink.count)
            withExtendedLifetime(anyToken) {}
        },
        Benchmark(group: "string key path: set, 1 observer", name: Name.observed + " \"value\"") { n in
            for i in 0..<n { stringModel.value = i }
            blackHole(sink.count)
            withExtendedLifetime(stringToken) {}
        },
        Benchmark(
            group: "string key path: set, 1 observer", name: Name.observed + " \"value\", read with newValue(as:)"
        ) { n in
            for i in 0..<n { typedReadModel.value = i }
            blackHole(sink.count)
            withExtendedLifetime(typedReadToken) {}
        },
        Benchmark(group: "string key path: set a String, 1 observer", name: Name.observed + " \\.name (typed)") { n in
            for i in 0..<n { typedNamed.name = names[i & 1] }
            blackHole(sink.count)
            withExtendedLifetime(typedNameToken) {}
        },
        Benchmark(
            group: "string key path: set a String, 1 observer",
            name: Name.observed + " \"name\", read with newValue(as:)"
        ) { n in
            for i in 0..<n { stringNamed.name = names[i & 1] }
            blackHole(sink.count)
            withExtendedLifetime(stringNameToken) {}
        },
        Benchmark(group: "string key path: observe + cancel", name: Name.observed + " \\.value token (typed)") { n in
            for _ in 0..<n {
                let token = observed.observe(\.value) { _, _ in }
                token.cancel()
            }
        },
        Benchmark(group: "string key path: observe + cancel", name: Name.observed + " \"value\" token") { n in
            for _ in 0..<n {
                let token = try! observed.observe(keyPath: "value") { _, _ in }
                token.cancel()
            }
        },
    ]
}

/// The change's values as `Any`. Out of line, so that the handler's casts back are not folded away.
@inline(never)
func valuesAsAny(_ change: ObservedChange<Int>) -> (old: Any?, new: Any?) {
    (change.oldValue, change.newValue)
}
