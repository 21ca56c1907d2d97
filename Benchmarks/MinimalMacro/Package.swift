// swift-tools-version: 6.2
// The floor of compile time for any will/did, old/new observation macro on the stock plugin loop:
// a macro built as ObservableMacros is (same swift-syntax, same loop, same build configuration)
// that generates the least such a macro must (storage, a getter, an init accessor, and a setter that
// hands the old and new values to a runtime before and after the write). compile-time.sh with FLOOR=1
// times it against @Observable in the same run.
import CompilerPluginSupport
import PackageDescription

let package = Package(
    name: "MinimalMacro",
    platforms: [.macOS(.v15)],
    products: [.library(name: "Minimal", targets: ["Minimal"])],
    dependencies: [.package(url: "https://github.com/swiftlang/swift-syntax", "600.0.1"..<"605.0.0")],
    targets: [
        .macro(
            name: "MinimalMacros",
            dependencies: [
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
            ]
        ),
        .target(name: "Minimal", dependencies: ["MinimalMacros"]),
    ],
    swiftLanguageModes: [.v6]
)
