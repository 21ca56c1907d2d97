import ObservableMacros
import SwiftDiagnostics
import SwiftParser
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import SwiftSyntaxMacrosGenericTestSupport
import Testing

let observedMacros: [String: MacroSpec] = [
    "Observed": MacroSpec(type: ObservedMacroUnderTest.self),
    "KeyValueObservable": MacroSpec(
        type: KeyValueObservableMacro.self, conformances: ["KeyValueObservable", "ObservedPropertyListing"]),
    "Unobserved": MacroSpec(type: UnobservedMacro.self),
    "_ObservedMember": MacroSpec(type: ObservedMemberUnderTest.self),
]

/// `@_ObservedMember`, the mark `@KeyValueObservable` adds: `@Observed`'s accessor role alone, as the
/// macro's declaration in ObservableCore gives it (the harness expands every role a type has).
enum ObservedMemberUnderTest: AccessorMacro {
    static var formatMode: FormatMode { ObservedMacro.formatMode }

    static func expansion(
        of node: AttributeSyntax, providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        try ObservedMacroUnderTest.expansion(of: node, providingAccessorsOf: declaration, in: context)
    }
}

/// `assertMacroExpansion` reporting through Swift Testing: every mismatch becomes an `Issue` at the
/// caller's line. (The XCTest-flavoured assertion reports nothing inside a `@Test` on swift-syntax
/// 600–603, so a wrong expansion would pass silently.)
func assertObservedExpansion(
    _ source: String,
    expandedSource: String,
    diagnostics: [DiagnosticSpec] = [],
    applyFixIts: [String]? = nil,
    fixedSource: String? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) {
    HarnessSource.$classes.withValue(HarnessSource.classes(in: source)) {
        assertMacroExpansionReportingIssues(
            source, expandedSource: expandedSource, diagnostics: diagnostics, applyFixIts: applyFixIts,
            fixedSource: fixedSource, fileID: fileID, filePath: filePath, line: line, column: column)
    }
}

private func assertMacroExpansionReportingIssues(
    _ source: String,
    expandedSource: String,
    diagnostics: [DiagnosticSpec],
    applyFixIts: [String]?,
    fixedSource: String?,
    fileID: StaticString,
    filePath: StaticString,
    line: UInt,
    column: UInt
) {
    assertMacroExpansion(
        source,
        expandedSource: expandedSource,
        diagnostics: diagnostics,
        macroSpecs: observedMacros,
        applyFixIts: applyFixIts,
        fixedSource: fixedSource,
        failureHandler: { failure in
            Issue.record(
                Comment(rawValue: failure.message),
                sourceLocation: SourceLocation(
                    fileID: failure.location.fileID,
                    filePath: failure.location.filePath,
                    line: failure.location.line,
                    column: failure.location.column
                )
            )
        },
        fileID: fileID,
        filePath: filePath,
        line: line,
        column: column
    )
}

/// The accessors `@Observed` generates for a property (an `init` accessor too, with or without an
/// initial value), indented for a member of a top-level class.
/// `uniqueSuffix` is what `makeUniqueName` appends for the n-th property expanded in one source
/// (`""`, then `"0"`, `"1"`, …). `appendedToObservers` mirrors how the harness prints accessors added
/// after a user's `willSet`/`didSet`: separated by blank lines.
func observedAccessors(
    _ name: String, uniqueSuffix: String = "", appendedToObservers: Bool = false, genericType: Bool = false,
    storesReference: Bool = false, initAccessor: Bool = true
) -> String {
    let didMutate = genericType ? "didMutateGeneric" : "didMutate"
    let change = "__macro_local_6changefMu\(uniqueSuffix)_"
    var accessors: [String] = []
    if initAccessor {
        accessors.append(
            """
                    @storageRestrictions(initializes: _\(name))
                    init(initialValue) {
                        _\(name) = initialValue
                    }
            """)
    }
    accessors.append(
        """
                get {
                    if ObservableCore.ObservationSlot.isTracking {
                        _$\(name).access(self) {
                            (\\.\(name), chained: \\.?.\(name), stored: { $0._\(name) })
                        }
                    }
                    return _\(name)
                }
        """)
    accessors.append(
        """
                set {
                    guard _$\(name).isObserved else {
                        _\(name) = newValue
                        return
                    }
                    let \(change) = _$\(name).willSet(self, _\(name)) {
                        \\.\(name)
                    }
                    _\(name) = newValue
                    _$\(name).didSet(self, \(change), _\(name))
                }
        """)
    // A value's `_modify` has one `yield`: `willSetIfObserved` tests `isObserved` itself.
    accessors.append(
        storesReference
            ? """
                    _modify {
                        guard _$\(name).isObserved else {
                            yield &_\(name)
                            return
                        }
                        let \(change) = _$\(name).willSet(self, _\(name)) {
                            \\.\(name)
                        }
                        defer {
                            _$\(name).\(didMutate)(self, \(change), _\(name))
                        }
                        yield &_\(name)
                    }
            """
            : """
                    _modify {
                        let \(change) = _$\(name).willSetIfObserved(self, _\(name)) {
                            \\.\(name)
                        }
                        defer {
                            _$\(name).\(didMutate)(self, \(change), _\(name))
                        }
                        yield &_\(name)
                    }
            """)
    return accessors.joined(separator: appendedToObservers ? "\n\n" : "\n")
}

/// Runs only the peer role of `@Observed` on the first `@Observed` variable of `source` (whose
/// enclosing type is its lexical context), returning its diagnostics as "line:column: message" and,
/// for each diagnostic with a fix-it, `source` with that fix-it applied.
func peerRoleDiagnostics(_ source: String) throws -> (diagnostics: [String], fixedSources: [String]) {
    let file = Parser.parse(source: source)
    let attribute = try #require(
        file.tokens(viewMode: .sourceAccurate)
            .first { $0.text == "Observed" }?.ancestor(AttributeSyntax.self))
    let declaration = try #require(attribute.ancestor(VariableDeclSyntax.self))
    let container = try #require(declaration.ancestor(ClassDeclSyntax.self))
    let context = BasicMacroExpansionContext(lexicalContext: [Syntax(container)])
    _ = try ObservedMacro.expansion(of: attribute, providingPeersOf: declaration, in: context)
    let converter = SourceLocationConverter(fileName: "test.swift", tree: file)
    let diagnostics = context.diagnostics.map { diagnostic in
        let location = diagnostic.location(converter: converter)
        return "\(location.line):\(location.column): \(diagnostic.message)"
    }
    let fixedSources = context.diagnostics.flatMap(\.fixIts).map { fixIt in
        var text = Array(source.utf8)
        for edit in fixIt.edits.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
            text.replaceSubrange(
                edit.range.lowerBound.utf8Offset..<edit.range.upperBound.utf8Offset, with: Array(edit.replacement.utf8))
        }
        return String(decoding: text, as: UTF8.self)
    }
    return (diagnostics, fixedSources)
}

extension SyntaxProtocol {
    func ancestor<Node: SyntaxProtocol>(_: Node.Type) -> Node? {
        var current = parent
        while let node = current {
            if let match = node.as(Node.self) { return match }
            current = node.parent
        }
        return nil
    }
}

#if canImport(SwiftSyntax601)
typealias ObservedMacroUnderTest = ObservedMacro
#else
/// `@Observed` as the tests expand it with swift-syntax 600, whose test support expands the accessors
/// of a property that has an accessor block on a copy detached from its class, so that the macro sees
/// no lexical context (the compiler always sends one, and 601 and later do here too). This gives the
/// accessor role the classes around the property, found in the test's source; nothing else differs.
enum ObservedMacroUnderTest: AccessorMacro, PeerMacro {
    static func expansion(
        of node: AttributeSyntax, providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        guard context.lexicalContext.isEmpty, let basic = context as? BasicMacroExpansionContext,
            let name = declaration.as(VariableDeclSyntax.self)?.bindings.first?.pattern.trimmedDescription,
            let classes = HarnessSource.classes[name]
        else { return try ObservedMacro.expansion(of: node, providingAccessorsOf: declaration, in: context) }
        let placed = BasicMacroExpansionContext(sharingWith: basic, lexicalContext: classes)
        return try ObservedMacro.expansion(of: node, providingAccessorsOf: declaration, in: placed)
    }

    static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        try ObservedMacro.expansion(of: node, providingPeersOf: declaration, in: context)
    }
}
#endif

/// The classes around each property of the source being expanded, innermost first, by the
/// property's name: what the compiler gives the macro as its lexical context.
enum HarnessSource {
    @TaskLocal static var classes: [String: [Syntax]] = [:]

    static func classes(in source: String) -> [String: [Syntax]] {
        var found: [String: [Syntax]] = [:]
        for token in Parser.parse(source: source).tokens(viewMode: .sourceAccurate) {
            guard let binding = token.parent?.parent?.as(PatternBindingSyntax.self),
                token.parent?.is(IdentifierPatternSyntax.self) == true
            else { continue }
            var classes: [Syntax] = []
            var node = Syntax(binding).parent
            while let current = node {
                if current.is(ClassDeclSyntax.self) { classes.append(current) }
                node = current.parent
            }
            if !classes.isEmpty, found[token.text] == nil { found[token.text] = classes }
        }
        return found
    }
}
