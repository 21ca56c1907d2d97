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
        .executableTarget(
            name: "Benchmarks",
            dependencies: [
                "CHeapInfo",
                "CReference",
                .product(name: "ObservableCore", package: rootPackage),
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "OpenCombineDispatch", package: "OpenCombine"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
