// swift-tools-version:6.2

import PackageDescription

// Compile-time flag for expensive internal invariant checks (off by default):
//   swift build -Xswiftc -DSUGGEST_INTERNAL_CHECKS
// Code under `#if SUGGEST_INTERNAL_CHECKS` verifies index and heap invariants after every mutation.

let package = Package(
    name: "swift-suggest",
    platforms: [
        // `Synchronization.Mutex` and Observation need these minimums on Apple platforms.
        .macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2),
    ],
    products: [
        .library(name: "Suggest", targets: ["Suggest"]),
        .library(name: "SuggestCore", targets: ["SuggestCore"]),
        .executable(name: "suggest", targets: ["SuggestCLI"]),
        .plugin(name: "SuggestValidatePlugin", targets: ["SuggestValidatePlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    ],
    targets: [
        // MARK: Core Library
        .target(
            name: "SuggestCore",
            dependencies: [
                .product(name: "HeapModule", package: "swift-collections")
            ]
        ),
        .target(
            name: "Suggest",
            dependencies: ["SuggestCore"],
            resources: [.copy("Resources/demo")]
        ),

        // MARK: Tools
        .executableTarget(
            name: "SuggestCLI",
            dependencies: [
                "Suggest",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // MARK: Plugins
        .plugin(
            name: "SuggestValidatePlugin",
            capability: .command(
                intent: .custom(
                    verb: "suggest-validate",
                    description: "Validate every *.suggest.json configuration in the package"
                )
            ),
            dependencies: ["SuggestCLI"]
        ),

        // MARK: Tests
        .testTarget(name: "SuggestCoreTests", dependencies: ["SuggestCore"], resources: [.copy("Fixtures")]),
        .testTarget(name: "SuggestTests", dependencies: ["Suggest"]),
        .testTarget(name: "SuggestCLITests", dependencies: ["SuggestCLI"], resources: [.copy("Fixtures")]),
    ]
)

for target in package.targets where [.executable, .test, .regular].contains(target.type) {
    var settings = target.swiftSettings ?? []
    // Require `any` for existential types (SE-0335).
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    // SE-0444
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    // SE-0409: imports are internal unless marked `public import`.
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    settings.append(.enableUpcomingFeature("NonisolatedNonsendingByDefault"))
    // Every public type says whether it is Sendable.
    settings.append(.unsafeFlags(["-Xfrontend", "-require-explicit-sendable"]))
    target.swiftSettings = settings
}
