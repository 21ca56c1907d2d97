import SwiftBasicFormat
import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros
import Synchronization

/// `@Observed`: turns a stored `var` of a class into storage plus accessors that notify the
/// ObservableCore runtime before and after every store, and report reads to key-path tracking.
///
/// For `@Observed var name: String` it generates
/// - accessors on `name`: `init`, `get`, `set`, `_modify`;
/// - peers: `private var _name: String` (the storage, carrying any `willSet`/`didSet`) and
///   `private let _$name: ObservableCore.ObservationSlot_ForCodable… = ObservableCore.ObservationSlot()`
///   (one pointer, nil until observed; the alias's name is for Codable's diagnostics); and
///   `private enum __$name` holding the types declared inside `willSet`/`didSet`, if any.
///
/// Variants: `skipsEqualValues: true` adds an equality check to the set's slow path and drops
/// `_modify`; `notifiesAutomatically: false` keeps the tracking getter and a plain store; on an
/// `override var` the accessors wrap `super.name` and only the slot is a peer.
public struct ObservedMacro {
    /// The expansion is laid out by the macro itself. Formatting every expansion was most of the
    /// plugin's time in a debug-built swift-syntax (which is how packages build their macros):
    /// the accessors' layout is fixed once per shape in `AccessorShape.templates(for:)` and filled
    /// in as text (`LaidOutSyntax`), as are the slot and a storage without `willSet`/`didSet`; only
    /// a storage carrying the user's observers is formatted per property.
    public static var formatMode: FormatMode { .disabled }

    /// The names of what one property expands to; the runtime learns the storage and the slot from
    /// the list `@KeyValueObservable` writes, not from these names.
    struct Names {
        /// The property as written, backticks included: used in `\.name`.
        let property: TokenSyntax
        let storage: TokenSyntax
        let slot: TokenSyntax
        /// The Observation registrar the accessors report to, in a class declaring `Observable`:
        /// the class's one when `@KeyValueObservable` adds it, else the property's own peer.
        let registrar: TokenSyntax

        init?(_ declaration: VariableDeclSyntax, in container: ClassDeclSyntax?) {
            guard let identifier = declaration.observedIdentifier, let text = identifier.identifierText else {
                return nil
            }
            self.init(
                property: identifier, storage: .identifier(Self.storage(of: text)),
                slot: .identifier(declaration.hasStringKey ? Self.slot(of: text) : Self.hiddenSlot(of: text)),
                registrar: ObservationBridge.registrar(for: text, in: container))
        }

        /// The storage of the property `name` (without backticks).
        static func storage(of name: String) -> String { "_" + name }
        /// The slot of the property `name` (without backticks).
        static func slot(of name: String) -> String { "_$" + name }
        /// The slot of a property `name` that no string key reaches: a key is a property name,
        /// which cannot begin with `$`, so no key finds it.
        static func hiddenSlot(of name: String) -> String { "_$$" + name }

        init(property: TokenSyntax, storage: TokenSyntax, slot: TokenSyntax, registrar: TokenSyntax) {
            self.property = property
            self.storage = storage
            self.slot = slot
            self.registrar = registrar
        }
    }
}

extension ObservedMacro: AccessorMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        // Each problem is reported by exactly one role: this one, except for what the compiler never
        // brings to accessor macros (several bindings, tuple patterns, non-variables). Thrown, not
        // diagnosed: an expansion that fails is not then also reported for the accessors it lacks.
        guard let property = declaration.as(VariableDeclSyntax.self) else { return [] }
        // `@KeyValueObservable`'s mark: anywhere else, nothing declares the storage and slot. (The
        // lexical context has the class without its members, so this is all that can be checked here.)
        if node.attributeName.textWithoutTrivia.hasSuffix(KeyValueObservableMacro.observedMemberName) {
            guard let container = context.lexicalContext.first?.as(ClassDeclSyntax.self),
                container.hasKeyValueObservableAttribute, !container.hasObservableMacro
            else {
                throw DiagnosticsError(diagnostics: [
                    Diagnostic(node: Syntax(node), message: ObservedDiagnostic.observedMemberWritten)
                ])
            }
        }
        // In an `@Observable` class, a property it tracks gets its accessors from `@ObservationTracked`,
        // whose storage copies this attribute: the error is reported there, once.
        if property.isObservationStorageCopy(lexicalContext: context.lexicalContext) {
            throw DiagnosticsError(diagnostics: [
                Diagnostic(node: Syntax(node), message: ObservedDiagnostic.observableMacroOnClass)
            ])
        }
        if property.isTrackedByObservableMacro(lexicalContext: context.lexicalContext) { return [] }
        let problems = property.observedProblems(attribute: node, lexicalContext: context.lexicalContext)
        if !problems.isEmpty, property.isSingleIdentifierBinding { throw DiagnosticsError(diagnostics: problems) }
        let container = context.lexicalContext.first?.as(ClassDeclSyntax.self)
        guard problems.isEmpty, let names = Names(property, in: container) else { return [] }

        let options = ObservedOptions.parse(node).0
        let isOverride = property.hasModifier(.override)
        let shape = AccessorShape(
            options: options, isOverride: isOverride,
            hasInitAccessor: property.observedHasInitAccessor(in: context.lexicalContext),
            storesReference: property.hasModifier(.weak) || property.hasModifier(.unowned),
            storesThroughObservers: container.map { PropertyList.listsStorage(of: property, in: $0) } == true
                && property.observedBinding?.accessorBlock != nil,
            isWrappedInBraces: property.observedBinding?.accessorBlock == nil,
            detectsCollectionsAtRunTime: property.mayHaveGenericType(in: context.lexicalContext),
            observation: ObservationCalls(
                in: container, options: options, isOverride: isOverride,
                isMarkedByClass: node.attributeName.textWithoutTrivia.hasSuffix(
                    KeyValueObservableMacro.observedMemberName)))
        let change = context.makeUniqueName("change")
        let value = shape.storesThroughObservers ? context.makeUniqueName("value") : change
        let observers =
            shape.storesThroughObservers
            ? property.observerArguments(storage: names.storage.text, property: names.property.identifierText!) : ""
        return AccessorShape.templates(for: shape).map { template in
            LaidOutSyntax.accessor(
                template.filled {
                    switch $0 {
                    case .property: names.property.text
                    case .storage: names.storage.text
                    case .slot: names.slot.text
                    case .registrar: names.registrar.text
                    case .change: change.text
                    case .observers: observers
                    case .value: value.text
                    }
                })
        }
    }
}

/// What decides the form of a property's accessors; all else is names.
struct AccessorShape: Hashable {
    let skipsEqualValues: Bool
    let notifiesAutomatically: Bool
    let isOverride: Bool
    /// Whether the accessors include `init`, so that an initializer can assign the property first.
    let hasInitAccessor: Bool
    /// Whether the storage is `weak` or `unowned`: reading it may cost or trap, so `_modify` does not
    /// read the old value before testing whether anyone observes.
    let storesReference: Bool
    /// Whether a store runs the user's `willSet`/`didSet` itself, around the storage, which is listed
    /// and so `nonisolated(unsafe)`: their bodies keep the class's isolation in the setter (see
    /// `VariableDeclSyntax.observerArguments`).
    let storesThroughObservers: Bool
    /// Whether the type may be a generic parameter (or built from one), for which the collection
    /// overloads of `didMutate` cannot be chosen at compile time.
    let detectsCollectionsAtRunTime: Bool
    /// Whether the accessors become the property's accessor block (it has no `willSet`/`didSet`),
    /// which indents them, or join the block it has.
    let isWrappedInBraces: Bool
    /// Whether, and how, reads and writes are reported to Observation too.
    let observation: ObservationCalls

    init(
        options: ObservedOptions, isOverride: Bool, hasInitAccessor: Bool, storesReference: Bool = false,
        storesThroughObservers: Bool = false, isWrappedInBraces: Bool,
        detectsCollectionsAtRunTime: Bool, observation: ObservationCalls
    ) {
        skipsEqualValues = options.skipsEqualValues
        notifiesAutomatically = options.notifiesAutomatically
        self.isOverride = isOverride
        self.hasInitAccessor = hasInitAccessor
        self.storesReference = storesReference
        self.storesThroughObservers = storesThroughObservers
        self.detectsCollectionsAtRunTime = detectsCollectionsAtRunTime
        self.isWrappedInBraces = isWrappedInBraces
        self.observation = observation
    }

    /// The accessors of this shape with placeholder names, laid out once per plugin process and then
    /// filled in for each property as text (see `LaidOutSyntax`).
    static func templates(for shape: AccessorShape) -> [PlaceholderTemplate] {
        if let cached = cache.withLock({ $0[shape] }) { return cached }
        let accessors = make(shape).map {
            // The layout `FormatMode.auto` gives, fixed once: formatted, then indented inside the
            // braces the expansion is wrapped in.
            let formatted = Self.joiningStorageReader(
                $0.formatted(using: BasicFormat(indentationWidth: indentation)).cast(AccessorDeclSyntax.self).trimmed
                    .description)
            guard shape.isWrappedInBraces, expansionKeepsLayout else {
                return PlaceholderTemplate(formatted)
            }
            let indented = formatted.split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.isEmpty ? "" : indentation.description + $0 }.joined(separator: "\n")
            return PlaceholderTemplate(indented)
        }
        cache.withLock { $0[shape] = accessors }
        return accessors
    }

    private static let cache = Mutex<[AccessorShape: [PlaceholderTemplate]]>([:])

    /// `text` with the getter's storage reader on one line, `{ $0._name }`, where the formatter
    /// gives a closure three.
    private static func joiningStorageReader(_ text: String) -> String {
        let reader = "$0." + PlaceholderTemplate.Placeholder.storage.rawValue
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var index = 1
        while index + 1 < lines.count {
            if lines[index].trimmingPrefix(while: \.isWhitespace) == reader, lines[index - 1].hasSuffix("{"),
                lines[index + 1].trimmingPrefix(while: \.isWhitespace).hasPrefix("}")
            {
                lines[index - 1] += " " + reader + " " + lines[index + 1].trimmingPrefix(while: \.isWhitespace)
                lines.removeSubrange(index...(index + 1))
            } else {
                index += 1
            }
        }
        return lines.joined(separator: "\n")
    }
    static let indentation = Trivia.spaces(4)

    /// Whether a `.disabled` expansion is inserted exactly as laid out. swift-syntax 600 still
    /// indents the accessors it wraps in braces (601 stopped: swift-syntax PR #2776).
    #if canImport(SwiftSyntax601)
    private static let expansionKeepsLayout = true
    #else
    private static let expansionKeepsLayout = false
    #endif

    /// How an accessor of `shape` stores `newValue` into `value` and yields it to a `_modify`: directly,
    /// or, for a storage whose `willSet`/`didSet` the setter runs (`storesThroughObservers`), through
    /// `ObservationSlot.store`, which runs them around the store as Swift runs a stored property's,
    /// and a `_modify` that yields a copy and stores it so.
    fileprivate static func storeAndYield(value: ExprSyntax, shape: AccessorShape) -> (store: String, yield: String) {
        guard shape.storesThroughObservers else { return ("\(value) = newValue", "yield &\(value)") }
        let observers = PlaceholderTemplate.Placeholder.observers.rawValue
        let copy = PlaceholderTemplate.Placeholder.value.rawValue
        return (
            "ObservableCore.ObservationSlot.store(newValue, \(observers))",
            "var \(copy) = \(value)\nyield &\(copy)\nObservableCore.ObservationSlot.store(\(copy), \(observers))"
        )
    }

    /// The accessors of `shape`, named with the placeholders.
    private static func make(_ shape: AccessorShape) -> [AccessorDeclSyntax] {
        let names = ObservedMacro.Names(
            property: PlaceholderTemplate.Placeholder.property.token,
            storage: PlaceholderTemplate.Placeholder.storage.token, slot: PlaceholderTemplate.Placeholder.slot.token,
            registrar: PlaceholderTemplate.Placeholder.registrar.token)
        let change = PlaceholderTemplate.Placeholder.change.token
        let isOverride = shape.isOverride
        let slot = names.slot
        // An override has no storage of its own: it wraps the superclass's property.
        let value: ExprSyntax = isOverride ? "super.\(names.property)" : "\(names.storage)"
        let (store, yield) = Self.storeAndYield(value: value, shape: shape)
        var accessors: [AccessorDeclSyntax] = []
        if shape.hasInitAccessor {
            accessors.append(
                """
                @storageRestrictions(initializes: \(names.storage))
                init(initialValue) {
                    \(names.storage) = initialValue
                }
                """)
        }
        if shape.observation == .slot {
            accessors += reportingThroughSlot(names: names, change: change, shape: shape)
            return accessors
        }
        // In a class reporting to Observation, a read is reported to it first, and its willSet/didSet
        // bracket the whole set, our notifications inside (see `ObservationBridge`). Each is a prefix
        // of the statement after it, laid out for the accessor's body, so that it adds no blank line
        // when empty.
        let keyPath = "keyPath: \\.\(names.property.text)"
        let registrar = names.registrar.text
        let line = "\n" + indentation.description
        // The getter hands over a reader of its storage, for paths read without key paths
        // (`StoredPath`); an override has no storage of its own to read.
        let stored = isOverride ? "" : ", stored: { $0.\(names.storage) }"
        let reportsAccess: String
        let withMutation: String
        switch shape.observation {
        case .none:
            reportsAccess = ""
            withMutation = ""
        case .registrar:
            reportsAccess = "\(registrar).access(self, \(keyPath))" + line
            withMutation = "\(registrar).withMutation(of: self, \(keyPath))"
        case .classMembers, .slot:
            reportsAccess = "access(\(keyPath))" + line
            withMutation = "withMutation(\(keyPath))"
        }
        let reportsMutation =
            shape.observation != .none
            ? "\(registrar).willSet(self, \(keyPath))\(line)defer {\(line)\(indentation)\(registrar).didSet(self, \(keyPath))\(line)}\(line)"
            : ""
        accessors.append(
            """
            get {
                \(raw: reportsAccess)if ObservableCore.ObservationSlot.isTracking {
                    \(slot).access(self) {
                        (\\.\(names.property), chained: \\.?.\(names.property)\(raw: stored))
                    }
                }
                return \(value)
            }
            """)
        guard shape.notifiesAutomatically else {
            // Manual notification: the owner brackets changes with willChangeValue/didChangeValue.
            accessors.append(
                """
                set {
                    \(raw: reportsMutation)\(raw: store)
                }
                """)
            if !isOverride {
                accessors.append(
                    """
                    _modify {
                        \(raw: reportsAccess)\(raw: reportsMutation)\(raw: yield)
                    }
                    """)
            }
            return accessors
        }
        let fastPath: ExprSyntax =
            shape.skipsEqualValues
            ? "\(slot).isObserved, !ObservableCore.ObservationSlot.isDuplicate(\(value), newValue)"
            : "\(slot).isObserved"
        // Unobserved, a class reporting to Observation does exactly `@Observable`'s work. Observed,
        // Observation's willSet and didSet bracket ours, called as `_modify` calls them: what
        // `withMutation` does, without a closure of several statements for the type checker to solve
        // with the generic call.
        let unobservedStore: CodeBlockItemSyntax =
            shape.observation != .none
            ? """
            \(raw: withMutation) {
                \(raw: store)
            }
            """
            : "\(raw: store)"
        accessors.append(
            """
            set {
                guard \(fastPath) else {
                    \(unobservedStore)
                    return
                }
                \(raw: reportsMutation)let \(change) = \(slot).willSet(self, \(value)) {
                    \\.\(names.property)
                }
                \(raw: store)
                \(slot).didSet(self, \(change), \(value))
            }
            """)
        // In-place mutation without a copy. Not for an override (super's storage is not ours to
        // yield) nor when equal values are skipped (equality is only known after the mutation, too
        // late for a `.prior` notification): Swift then mutates through `get` and `set`.
        if !isOverride, !shape.skipsEqualValues {
            let didMutate: TokenSyntax = shape.detectsCollectionsAtRunTime ? "didMutateGeneric" : "didMutate"
            // A plain stored value in a class that does not report: the test of `isObserved` is inside
            // `willSetIfObserved`, so that the coroutine has one `yield` (see there). Not where reading
            // the old value first could cost or trap: a `weak` or `unowned` reference.
            if shape.observation == .none, !shape.storesReference {
                accessors.append(
                    """
                    _modify {
                        let \(change) = \(slot).willSetIfObserved(self, \(value)) {
                            \\.\(names.property)
                        }
                        defer {
                            \(slot).\(didMutate)(self, \(change), \(value))
                        }
                        \(raw: yield)
                    }
                    """)
                return accessors
            }
            accessors.append(
                """
                _modify {
                    \(raw: reportsAccess)\(raw: reportsMutation)guard \(slot).isObserved else {
                        \(raw: yield)
                        return
                    }
                    let \(change) = \(slot).willSet(self, \(value)) {
                        \\.\(names.property)
                    }
                    defer {
                        \(slot).\(didMutate)(self, \(change), \(value))
                    }
                    \(raw: yield)
                }
                """)
        }
        return accessors
    }
}

extension AccessorShape {
    /// The accessors of a property `@KeyValueObservable` marks in a class declaring `Observable` whose
    /// `access(keyPath:)` and `withMutation(keyPath:_:)` are the macro's: each passes the registrar to
    /// the slot, which makes Observation's calls around ours with the key path it is given, so the
    /// accessors are those of a class that does not report, with one argument more.
    fileprivate static func reportingThroughSlot(
        names: ObservedMacro.Names, change: TokenSyntax, shape: AccessorShape
    ) -> [AccessorDeclSyntax] {
        let slot = names.slot
        let storage = names.storage
        let registrar = names.registrar
        let didMutate: TokenSyntax = shape.detectsCollectionsAtRunTime ? "didMutateGeneric" : "didMutate"
        let (store, yield) = storeAndYield(value: "\(storage)", shape: shape)
        return [
            """
            get {
                \(slot).access(self, reportingTo: \(registrar)) {
                    (\\.\(names.property), chained: \\.?.\(names.property), stored: { $0.\(storage) })
                }
                return \(storage)
            }
            """,
            """
            set {
                let \(change) = \(slot).willSet(self, \(storage), reportingTo: \(registrar)) {
                    \\.\(names.property)
                }
                \(raw: store)
                \(slot).didSet(self, \(change), \(storage), reportingTo: \(registrar))
            }
            """,
            """
            _modify {
                let \(change) = \(slot).willModify(self, \(storage), reportingTo: \(registrar)) {
                    \\.\(names.property)
                }
                defer {
                    \(slot).\(didMutate)(self, \(change), \(storage), reportingTo: \(registrar))
                }
                \(raw: yield)
            }
            """,
        ]
    }
}

/// How a property's accessors report to Observation (see `ObservationBridge`).
enum ObservationCalls: Hashable {
    /// Not at all.
    case none
    /// To the registrar, directly.
    case registrar
    /// Through the class's `access(keyPath:)` and `withMutation(keyPath:_:)`, as `@Observable`'s
    /// accessors do; `_modify` calls the registrar's `willSet` and `didSet`, as its does.
    case classMembers
    /// Through the slot, given the registrar: for a property `@KeyValueObservable` marks in a class
    /// declaring `Observable` whose `access(keyPath:)` and `withMutation(keyPath:_:)` the macro
    /// writes, so that they do nothing but call the registrar. (`@KeyValueObservable` says when the
    /// class writes its own, which only it sees: the accessor role is given the class without its
    /// members.)
    case slot

    init(in container: ClassDeclSyntax?, options: ObservedOptions, isOverride: Bool, isMarkedByClass: Bool) {
        if ObservationBridge.reporting(in: container) == .none {
            self = .none
        } else if !ObservationBridge.callsClassMembers(in: container) {
            self = .registrar
        } else if isMarkedByClass, !options.callsClassMembers, options.notifiesAutomatically,
            !options.skipsEqualValues, !isOverride
        {
            self = .slot
        } else {
            self = .classMembers
        }
    }
}

extension ObservedMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let property = declaration.as(VariableDeclSyntax.self) else {
            // Functions, types, …: the accessor role never runs for these, so report here.
            context.diagnose(Diagnostic(node: Syntax(node), message: ObservedDiagnostic.notAVariable))
            return []
        }
        if property.isObservationStorageCopy(lexicalContext: context.lexicalContext)
            || property.isTrackedByObservableMacro(lexicalContext: context.lexicalContext)
        {
            return []
        }
        let problems = property.observedProblems(attribute: node, lexicalContext: context.lexicalContext)
        if !property.isSingleIdentifierBinding { problems.forEach(context.diagnose) }
        let container = context.lexicalContext.first?.as(ClassDeclSyntax.self)
        guard problems.isEmpty, let names = Names(property, in: container) else { return [] }
        return declarations(of: property, names: names, in: container)
    }

    /// What a property's accessors need beside them: the storage (unless it overrides), the slot, the
    /// property's own registrar where the class has none, and the namespace of types moved out of its
    /// `willSet`/`didSet`. The peers of `@Observed`; the class's members for a property
    /// `@KeyValueObservable` marks.
    static func declarations(of property: VariableDeclSyntax, names: Names, in container: ClassDeclSyntax?)
        -> [DeclSyntax]
    {
        // Declared with the alias whose name says what to do when synthesised Codable trips on it.
        var slot: [DeclSyntax] = [
            LaidOutSyntax.declaration(
                "private let \(names.slot.text): ObservableCore.ObservationSlot_ForCodableAddKeyValueObservableAndDeclareCodableOnTheClass = ObservableCore.ObservationSlot()"
            )
        ]
        if let container, ObservationBridge.needsPropertyRegistrar(in: container) {
            slot.append(ObservationBridge.registrarDeclaration(named: names.registrar, in: container))
        }
        if property.hasModifier(.override) { return slot }
        let storage = property.observedStorage(
            named: names.storage.text, property: names.property.identifierText!,
            listed: container.map { PropertyList.listsStorage(of: property, in: $0) } ?? false)
        return [storage[0]] + slot + storage.dropFirst()
    }
}
