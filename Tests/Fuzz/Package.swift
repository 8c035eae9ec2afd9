// swift-tools-version:6.2

import Foundation
import PackageDescription

// libFuzzer targets for swift-suggest's parsers. Its own package, like Benchmarks/, so that the
// main package's users and `swift test` never build it. Build and run with `make fuzz` from the repository's root
// (`swift build -c debug --sanitize=fuzzer --sanitize=address` here, then each binary with its committed corpus).

// SwiftPM names a path dependency after its folder, and a clone's folder name varies: derive it.
let suggestPackage = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
    name: "swift-suggest-fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "../../"),
    ],
    targets: [
        .executableTarget(
            name: "FuzzConfiguration",
            dependencies: [.product(name: "Suggest", package: suggestPackage)]
        ),
        .executableTarget(
            name: "FuzzDictionaryLine",
            dependencies: [.product(name: "Suggest", package: suggestPackage)]
        ),
        .executableTarget(
            name: "FuzzTokenRule",
            dependencies: [.product(name: "Suggest", package: suggestPackage)]
        ),
        // A saved prefix index with bytes overwritten (checksum made right again), loaded and searched.
        .executableTarget(
            name: "FuzzIndexFile",
            dependencies: [.product(name: "Suggest", package: suggestPackage)]
        ),
        // The `suggest batch` line processor itself (SuggestWire, shared by the CLI and `suggest serve`).
        .executableTarget(
            name: "FuzzBatchLine",
            dependencies: [
                .product(name: "Suggest", package: suggestPackage),
                .product(name: "SuggestWire", package: suggestPackage),
            ]
        ),
    ]
)
