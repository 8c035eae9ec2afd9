// swift-tools-version:6.2

import Foundation
import PackageDescription

// SwiftPM names a path dependency after its folder, and a clone's folder name varies: derive it.
let suggestPackage = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent.lowercased()

// The benchmarks live in their own package so that users of swift-suggest never resolve package-benchmark.
// Run from this folder: `swift package benchmark` (release build; see ../README.md#benchmarks).
let package = Package(
    name: "swift-suggest-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "../"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // One executable target per suite, under Benchmarks/<Suite>/.
        .executableTarget(
            name: "EngineOverhead",
            dependencies: [
                .product(name: "Suggest", package: suggestPackage),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/EngineOverhead",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "WholeEngine",
            dependencies: [
                .product(name: "Suggest", package: suggestPackage),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/WholeEngine",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "Recents",
            dependencies: [
                .product(name: "SuggestRecents", package: suggestPackage),
                .product(name: "SuggestCore", package: suggestPackage),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Recents",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "PrefixIndex",
            dependencies: [
                .product(name: "SuggestPrefix", package: suggestPackage),
                .product(name: "SuggestFuzzy", package: suggestPackage),
                .product(name: "SuggestIndex", package: suggestPackage),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/PrefixIndex",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "Fuzzy",
            dependencies: [
                .product(name: "SuggestFuzzy", package: suggestPackage),
                .product(name: "SuggestIndex", package: suggestPackage),
                .product(name: "SuggestCore", package: suggestPackage),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Fuzzy",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "TokenExtraction",
            dependencies: [
                .product(name: "SuggestTokens", package: suggestPackage),
                .product(name: "SuggestCore", package: suggestPackage),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/TokenExtraction",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "TypingSessions",
            dependencies: [
                .product(name: "Suggest", package: suggestPackage),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/TypingSessions",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Not a benchmark suite: answers query lists for Scripts/fuzzy-compare.sh and Scripts/fuzzy-quality.sh.
        .executableTarget(
            name: "FuzzyEval",
            dependencies: [
                .product(name: "SuggestFuzzy", package: suggestPackage),
                .product(name: "SuggestIndex", package: suggestPackage),
                .product(name: "SuggestCore", package: suggestPackage),
            ],
            path: "Sources/FuzzyEval"
        ),
        .executableTarget(
            name: "EngineEval",
            dependencies: [.product(name: "Suggest", package: suggestPackage)],
            path: "Sources/EngineEval"
        ),
        .executableTarget(
            name: "IndexLoad",
            dependencies: [.product(name: "SuggestIndex", package: suggestPackage)],
            path: "Sources/IndexLoad"
        ),
    ]
)
