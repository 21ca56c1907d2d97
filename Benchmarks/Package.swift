// swift-tools-version: 6.2
// Side-by-side benchmarks of ObservableCore against hand-written code, Apple's Observation and
// OpenCombine. Release builds only: `swift run -c release --package-path Benchmarks` (see BENCHMARKS.md).
import Foundation
import PackageDescription

// The root package is a path dependency, whose identity is its folder's name (which differs between
// checkouts), so it is read from this file's location.
let rootPackage = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent

let package = Package(
    name: "ObservableCoreBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    ],
    targets: [
        // mallinfo2(), for heap bytes per instance and per observation; allocations counted, for the
        // speed gate.
        .target(name: "CHeapInfo"),
        // A C loop doing the least a set with N observers must do: a reference point, not a contender.
        .target(name: "CReference"),
        // The least a re-wire of a nested path must do, by hand: the floor of the intermediate-replaced
        // row, shared by both harnesses.
        .target(name: "RewireReference"),
        .executableTarget(
            name: "Benchmarks",
            dependencies: [
                "CHeapInfo",
                "CReference",
                "RewireReference",
                .product(name: "ObservableCore", package: rootPackage),
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "OpenCombineDispatch", package: "OpenCombine"),
            ]
        ),
        // A second, simpler harness for the nested-path rows (plain timed loops).
        .executableTarget(
            name: "NestedRows",
            dependencies: ["RewireReference", .product(name: "ObservableCore", package: rootPackage)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
