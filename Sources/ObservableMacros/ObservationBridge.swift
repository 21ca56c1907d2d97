import SwiftSyntax
import SwiftSyntaxMacros

/// How `@Observed` reports to Observation (the tracking SwiftUI uses) in a class that is
/// `Observable`: as `@Observable` does, through an `ObservationRegistrar`. A read calls `access`
/// before our own tracking; a write calls `willSet` before our `.prior` notification and `didSet`
/// after our observers have been told, so KVO-style delivery happens inside Observation's bracket.
///
/// A macro sees only what the class declares. A class declaring `Observable` gets Observation's
/// registrar. A class that may be `Observable` without saying so (a subclass, or one conforming
/// through a protocol of its own) gets the registrar `ObservableCore._$chooseObservationRegistrar(for:)`
/// chooses from the class's conformances: Observation's, or one that takes no space and does nothing.
/// A class that surely is not (no superclass, only protocols known not to be `Observable`) gets none.
///
/// The registrar is the class's one (`_$observationRegistrar`, as `@Observable` names it) when
/// `@KeyValueObservable` can add it; a property macro alone cannot add a member to the class, so
/// each property then has its own registrar beside its slot. Observation keys what it tracks by
/// registrar and key path, so one registrar per property tracks the same as one per object.
enum ObservationBridge {
    /// Whether, and through what, a class's properties report to Observation.
    enum Reporting {
        /// Not at all: the class is surely not `Observable`.
        case none
        /// To Observation's registrar: the class declares `Observable`.
        case declared
        /// To the registrar the class's conformances choose: it may be `Observable` unseen.
        case chosenByConformance
    }

    static func reporting(in container: ClassDeclSyntax?) -> Reporting {
        guard let container else { return .none }
        if container.declaresObservable { return .declared }
        return container.isSurelyNotObservable ? .none : .chosenByConformance
    }

    /// Whether a property of `container` needs a registrar of its own, as a peer.
    static func needsPropertyRegistrar(in container: ClassDeclSyntax?) -> Bool {
        reporting(in: container) != .none && container?.hasKeyValueObservableAttribute != true
    }

    /// The registrar the accessors of `property` call in `container`.
    static func registrar(for property: String, in container: ClassDeclSyntax?) -> TokenSyntax {
        .identifier(
            container?.hasKeyValueObservableAttribute == true ? classRegistrar : "_$observationRegistrar_" + property)
    }

    /// The class's registrar, which `@KeyValueObservable` adds to a class that reports.
    static func classRegistrarDeclaration(in container: ClassDeclSyntax) -> DeclSyntax {
        registrarDeclaration(named: .identifier(classRegistrar), in: container)
    }

    static func registrarDeclaration(named name: TokenSyntax, in container: ClassDeclSyntax) -> DeclSyntax {
        if reporting(in: container) == .declared {
            return LaidOutSyntax.declaration("private let \(name.text) = Observation.ObservationRegistrar()")
        }
        return LaidOutSyntax.declaration(
            "private let \(name.text) = ObservableCore._$chooseObservationRegistrar(for: \(container.name.text).self)")
    }

    /// Whether the accessors call the class's `access(keyPath:)` and `withMutation(keyPath:_:)`, as
    /// `@Observable`'s do (so a class may write its own): in a class declaring `Observable` that
    /// `@KeyValueObservable` gives them to (unless it declares them itself).
    static func callsClassMembers(in container: ClassDeclSyntax?) -> Bool {
        guard let container else { return false }
        return reporting(in: container) == .declared && container.hasKeyValueObservableAttribute
    }

    /// Whether a class declaring `Observable` writes its own `access(keyPath:)` or
    /// `withMutation(keyPath:_:)`, which its accessors must then call.
    static func declaresOwnMembers(_ container: ClassDeclSyntax) -> Bool {
        reporting(in: container) == .declared
            && container.memberBlock.members.contains {
                guard let name = $0.decl.as(FunctionDeclSyntax.self)?.name.text else { return false }
                return name == "access" || name == "withMutation"
            }
    }

    /// The members `@KeyValueObservable` adds to a class declaring `Observable`, beside its registrar:
    /// `@Observable`'s `access(keyPath:)` and `withMutation(keyPath:_:)`, each unless the class
    /// declares a function of that name itself.
    static func classMembers(of container: ClassDeclSyntax, in context: some MacroExpansionContext) -> [DeclSyntax] {
        let type = container.name.text
        let declared = Set(container.memberBlock.members.compactMap { $0.decl.as(FunctionDeclSyntax.self)?.name.text })
        // Laid out as the formatter would (see `LaidOutSyntax`).
        var members: [DeclSyntax] = []
        if !declared.contains("access") {
            let member = context.makeUniqueName("Member").text
            members.append(
                LaidOutSyntax.declaration(
                    """
                    internal nonisolated func access<\(member)>(keyPath: KeyPath<\(type), \(member)>) {
                        \(classRegistrar).access(self, keyPath: keyPath)
                    }
                    """))
        }
        if !declared.contains("withMutation") {
            let mutated = context.makeUniqueName("Member").text
            let result = context.makeUniqueName("MutationResult").text
            members.append(
                LaidOutSyntax.declaration(
                    """
                    internal nonisolated func withMutation<\(mutated), \(result)>(
                        keyPath: KeyPath<\(type), \(mutated)>, _ mutation: () throws -> \(result)
                    ) rethrows -> \(result) {
                        try \(classRegistrar).withMutation(of: self, keyPath: keyPath, mutation)
                    }
                    """))
        }
        return members
    }

    private static let classRegistrar = "_$observationRegistrar"
}
