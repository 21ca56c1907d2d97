// swift-tools-version: 6.2
import CompilerPluginSupport
import PackageDescription

let package = Package(
    name: "ObservableCore",
    // `Synchronization` (Atomic, Mutex) needs these minimums on Apple platforms; Linux has it always.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2), .macCatalyst(.v18)],
    products: [
        .library(name: "ObservableCore", targets: ["ObservableCore"]),
        // For tests only: an app never links it (as swift-dependencies ships its test support).
        .library(name: "ObservableCoreTesting", targets: ["ObservableCoreTesting"]),
    ],
    dependencies: [
        // Every release from Swift 6.0's to Swift 6.4's, so that an app whose other macro packages
        // hold an older one still resolves. `.ci/run` runs the suite with the newest this machine has
        // and with 600.0.1; the workflow's Swift 6.4 job with 604.
        .package(url: "https://github.com/swiftlang/swift-syntax", "600.0.1"..<"605.0.0")
    ],
    targets: [
        .macro(
            name: "ObservableMacros",
            dependencies: [
                .product(name: "SwiftBasicFormat", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
            ]
        ),
        .target(name: "ObservableCore", dependencies: ["ObservableMacros"]),
        .target(name: "ObservableCoreTesting", dependencies: ["ObservableCore"]),
        .executableTarget(name: "Demo", dependencies: ["ObservableCore", "ObservableCoreTesting"]),
        .testTarget(
            name: "ObservableMacrosTests",
            dependencies: [
                "ObservableMacros",
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
            ]
        ),
        .testTarget(name: "ObservableCoreTests", dependencies: ["ObservableCore", "ObservableCoreTesting"]),
    ],
    swiftLanguageModes: [.v6]
)
