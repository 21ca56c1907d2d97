import SwiftSyntax

/// How `@Observed` reports to Observation (the tracking SwiftUI uses) in a class that declares
/// `Observable`: as `@Observable` does, through an `ObservationRegistrar`. A read calls `access`
/// before our own tracking; a write calls `willSet` before our `.prior` notification and `didSet`
/// after our observers have been told, so KVO-style delivery happens inside Observation's bracket.
///
/// The registrar is the class's one (`_$observationRegistrar`, as `@Observable` names it) when
/// `@KeyValueObservable` can add it; a property macro alone cannot add a member to the class, so
/// each property then has its own registrar beside its slot. Observation keys what it tracks by
/// registrar and key path, so one registrar per property tracks the same as one per object.
enum ObservationBridge {
    /// Whether the properties of `container` report to Observation.
    static func reports(in container: ClassDeclSyntax?) -> Bool {
        container?.declaresObservable == true
    }

    /// Whether a property of `container` needs a registrar of its own, as a peer.
    static func needsPropertyRegistrar(in container: ClassDeclSyntax?) -> Bool {
        reports(in: container) && container?.hasKeyValueObservableAttribute != true
    }

    /// The registrar the accessors of `property` call in `container`.
    static func registrar(for property: String, in container: ClassDeclSyntax?) -> TokenSyntax {
        .identifier(
            container?.hasKeyValueObservableAttribute == true ? classRegistrar : "_$observationRegistrar_" + property)
    }

    /// The class's registrar, which `@KeyValueObservable` adds to a class declaring `Observable`.
    static var classRegistrarDeclaration: DeclSyntax { registrarDeclaration(named: .identifier(classRegistrar)) }

    static func registrarDeclaration(named name: TokenSyntax) -> DeclSyntax {
        "private let \(name) = Observation.ObservationRegistrar()"
    }

    private static let classRegistrar = "_$observationRegistrar"
}
