import SwiftSyntax

/// The list of a class's `@Observed` properties that `@KeyValueObservable` writes
/// (`_$observedProperties`): what the runtime's by-name features must know of the class, written by
/// the macro rather than found in the runtime's reflection metadata.
///
/// ```swift
/// nonisolated class var _$observedProperties: ObservableCore.ObservedPropertyList {
///     ObservableCore.ObservedPropertyList(
///         Person.self, inheriting: nil,
///         [
///             .init("name", { (object: Person) in object._name }),
///             .init("secret", { (object: Person) in object._secret }, [.hidden]),
///         ]
///     ) { object, slots in
///         slots.append(object._$name)
///         slots.append(object._$$secret)
///     }
/// }
/// ```
///
/// The readers read the storage, which the class declares `nonisolated(unsafe)` (`listsStorage`), so
/// that a nonisolated member can read it in an actor-isolated class.
enum PropertyList {
    /// The member, `override` when a superclass lists its properties already (the member role's
    /// `conformingTo` does not include `ObservedPropertyListing`).
    static func declaration(of declaration: ClassDeclSyntax, superclassLists: Bool) -> DeclSyntax {
        let type = declaration.typeWithGenericArguments
        var entries: [String] = []
        var slots: [String] = []
        for member in declaration.memberBlock.members {
            guard let property = member.decl.as(VariableDeclSyntax.self), isListed(property, in: declaration),
                let names = ObservedMacro.Names(property, in: declaration), let name = names.property.identifierText
            else { continue }
            var flags: [String] = []
            if !property.hasStringKey { flags.append(".hidden") }
            if property.hasModifier(.weak) { flags.append(".weak") }
            if property.hasModifier(.unowned) { flags.append(".unowned") }
            if property.hasModifier(.override) { flags.append(".override") }
            if property.observedBinding?.typeAnnotation?.type.isExistential == true { flags.append(".existential") }
            let flagList = "[" + flags.joined(separator: ", ") + "]"
            if storageIsListed(property) {
                let flagText = flags.isEmpty ? "" : ", " + flagList
                entries.append(".init(\"\(name)\", { (object: \(type)) in object.\(names.storage.text) }\(flagText))")
            } else if let written = property.observedBinding?.typeAnnotation?.type.textWithoutTrivia {
                // An override spells its type; it reads the superclass's storage.
                entries.append(".init(\"\(name)\", overriding: (\(written)).self, \(flagList))")
            } else {
                continue
            }
            slots.append("slots.append(object.\(names.slot.text))")
        }
        let access = declaration.isPublic ? "public " : ""
        let kind = superclassLists ? "override class" : declaration.isFinal ? "static" : "class"
        let inherited = superclassLists ? "super._$observedProperties" : "nil"
        let list =
            entries.isEmpty ? "[]" : "[\n            " + entries.joined(separator: ",\n            ") + "\n        ]"
        let body =
            slots.isEmpty
            ? "_, _ in }" : "object, slots in\n        " + slots.joined(separator: "\n        ") + "\n    }"
        // Laid out as the formatter would (see `LaidOutSyntax`).
        return LaidOutSyntax.declaration(
            """
            \(access)nonisolated \(kind) var _$observedProperties: ObservableCore.ObservedPropertyList {
                ObservableCore.ObservedPropertyList(
                    \(type).self, inheriting: \(inherited),
                    \(list)
                ) { \(body)
            }
            """)
    }

    /// Whether `type`, one of the conformances a role is given, is `ObservedPropertyListing`.
    static func isListingProtocol(_ type: TypeSyntax) -> Bool {
        unqualifiedName(type) == "ObservedPropertyListing"
    }

    /// A conformance's name without its module (`ObservableCore.KeyValueObservable`).
    static func unqualifiedName(_ type: TypeSyntax) -> String {
        String(type.textWithoutTrivia.split(separator: ".").last ?? "")
    }

    /// Whether the class observes `property` and lists it: marked by the class attribute, or written
    /// `@Observed` in the class's braces.
    static func isListed(_ property: VariableDeclSyntax, in declaration: ClassDeclSyntax) -> Bool {
        property.hasAttribute(named: ["Observed"])
            || KeyValueObservableMacro.marking(of: property, in: declaration).isObserved
    }

    /// Whether `declaration`'s list reads the storage of `property` (an `@Observed` property of it)
    /// from outside the class's isolation, so that it is `nonisolated(unsafe)`: a `@KeyValueObservable`
    /// class, and not one declaring `Sendable`, whose mutable storage the compiler must still refuse.
    static func listsStorage(of property: VariableDeclSyntax, in declaration: ClassDeclSyntax) -> Bool {
        declaration.hasKeyValueObservableAttribute && !declaration.hasObservableMacro
            && !declaration.inheritedTypeNames.contains("Sendable") && storageIsListed(property)
            && !property.hasModifier(.nonisolated)
    }

    /// Whether the list reads the property's storage: not an override, which has none.
    static func storageIsListed(_ property: VariableDeclSyntax) -> Bool {
        !property.hasModifier(.override)
    }
}

extension ClassDeclSyntax {
    /// The class's type as written inside it: `Cell<Element>` for `class Cell<Element>`.
    var typeWithGenericArguments: String {
        guard let parameters = genericParameterClause?.parameters, !parameters.isEmpty else { return name.text }
        return name.text + "<" + parameters.map(\.name.text).joined(separator: ", ") + ">"
    }
}

extension TypeSyntax {
    /// Whether the type is written as an existential, optional or not: `Any`, `AnyObject`, `any P`,
    /// `P & Q`. (A protocol named bare, `P`, cannot be told from a concrete type by its spelling.)
    var isExistential: Bool {
        if let optional = self.as(OptionalTypeSyntax.self) { return optional.wrappedType.isExistential }
        if let optional = self.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            return optional.wrappedType.isExistential
        }
        if let tuple = self.as(TupleTypeSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first {
            return only.type.isExistential
        }
        if let some = self.as(SomeOrAnyTypeSyntax.self) { return some.someOrAnySpecifier.tokenKind == .keyword(.any) }
        if self.is(CompositionTypeSyntax.self) { return true }
        let text = textWithoutTrivia
        return text == "Any" || text == "AnyObject" || text == "Swift.Any" || text == "Swift.AnyObject"
    }
}
