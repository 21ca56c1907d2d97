import SwiftSyntax

/// The `customMirror` `@KeyValueObservable` writes for a final class that declares
/// `CustomReflectable` (and writes no `customMirror`), as it writes `Codable` for one that declares
/// that: `dump`, `Mirror` and the debugger then show each stored property as written (`name`)
/// rather than the macro's storage and slot (`_name`, `_$name`).
///
/// Only in a final class, since a mirror is inherited and a subclass's own properties would be
/// missing from it. An `@Observed` property is read from its storage, so that the mirror notifies
/// no `@Observable` registrar and records no read.
enum ReflectionConformance {
    /// Whether the class declares `CustomReflectable` and leaves `customMirror` to the macro.
    static func isDeclared(by declaration: ClassDeclSyntax) -> Bool {
        guard declaration.inheritedTypeNames.contains("CustomReflectable") else { return false }
        return !declaration.memberBlock.members.contains { member in
            member.decl.as(VariableDeclSyntax.self)?.bindings.contains {
                $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.identifierText == "customMirror"
            } == true
        }
    }

    /// `var customMirror`, listing the stored properties in the order declared.
    static func members(of declaration: ClassDeclSyntax) -> [DeclSyntax] {
        var children: [String] = []
        for member in declaration.memberBlock.members {
            guard let property = member.decl.as(VariableDeclSyntax.self),
                ![.static, .class, .lazy, .override].contains(where: property.hasModifier)
            else { continue }
            let observed =
                property.hasAttribute(named: ["Observed"])
                || KeyValueObservableMacro.marking(of: property, in: declaration).isObserved
            for binding in property.bindings where !binding.isComputed {
                guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier,
                    let text = name.identifierText
                else { continue }
                children.append("\"\(text)\": self.\(observed ? "_" + text : name.text) as Any")
            }
        }
        let access = declaration.isPublic ? "public " : ""
        let list = children.isEmpty ? ":" : children.joined(separator: ", ")
        // Laid out as the formatter would (see `LaidOutSyntax`).
        return [
            LaidOutSyntax.declaration(
                """
                \(access)var customMirror: Mirror {
                    Mirror(self, children: [\(list)], displayStyle: .class)
                }
                """)
        ]
    }
}
