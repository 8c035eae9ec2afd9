// swift-tools-version:6.2

import PackageDescription

// Thread-sanitizer runs on Linux add -Xswiftc -DSUGGEST_TSAN_VISIBLE_LOCKS: SuggestRecents and SuggestPopular then lock with a pthread
// mutex, which TSan sees, instead of `Synchronization.Mutex`, whose futex TSan cannot see there (false races).

/// The server side's packages: resolved and built only with the `Server` trait, so an app that links `Suggest` (and
/// the default build of the `suggest` command) never fetches or compiles SwiftNIO, Hummingbird, NIOSSL,
/// async-http-client or postgres-nio.
let server: Set<String> = ["Server"]

let package = Package(
    name: "swift-suggest",
    platforms: [
        // `Synchronization.Mutex` and Observation need these minimums on Apple platforms.
        .macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2),
    ],
    products: [
        .library(name: "Suggest", targets: ["Suggest"]),
        .library(name: "SuggestCore", targets: ["SuggestCore"]),
        .library(name: "SuggestPattern", targets: ["SuggestPattern"]),
        .library(name: "SuggestTokens", targets: ["SuggestTokens"]),
        .library(name: "SuggestRecents", targets: ["SuggestRecents"]),
        .library(name: "SuggestPopular", targets: ["SuggestPopular"]),
        .library(name: "SuggestIndex", targets: ["SuggestIndex"]),
        .library(name: "SuggestPrefix", targets: ["SuggestPrefix"]),
        .library(name: "SuggestFuzzy", targets: ["SuggestFuzzy"]),
        .library(name: "SuggestWire", targets: ["SuggestWire"]),
        .library(name: "SuggestTesting", targets: ["SuggestTesting"]),
        .library(name: "SuggestValidation", targets: ["SuggestValidation"]),
        .library(name: "SuggestBench", targets: ["SuggestBench"]),
        // SwiftUI binding of `SearchSession`; empty where SwiftUI is absent (Linux).
        .library(name: "SuggestUI", targets: ["SuggestUI"]),
        // Server side: empty modules unless the `Server` trait is on.
        .library(name: "SuggestServer", targets: ["SuggestServer"]),
        .library(name: "SuggestRemote", targets: ["SuggestRemote"]),
        .library(name: "SuggestPostgres", targets: ["SuggestPostgres"]),
        .executable(name: "suggest", targets: ["suggest"]),
        .executable(name: "suggest-demo", targets: ["suggest-demo"]),
        .plugin(name: "SuggestValidatePlugin", targets: ["SuggestValidatePlugin"]),
        .plugin(name: "SuggestIndexPlugin", targets: ["SuggestIndexPlugin"]),
    ],
    traits: [
        // Token rules and recent-search exclusions run on PCRE2 (JIT) when this trait is on (the default); without it
        // (`--disable-default-traits`, or where libpcre2 is absent, e.g. iOS apps) they run on Swift `Regex`.
        .trait(name: "PCRE2", description: "Patterns on libpcre2-8 with JIT (needs libpcre2-dev / brew pcre2)"),
        // Opt-in: `swift build --traits PCRE2,Server`, or `traits: [.defaults, "Server"]` on a dependency.
        .trait(
            name: "Server",
            description: "suggest serve and import, SuggestServer, SuggestRemote and SuggestPostgres "
                + "(Hummingbird, SwiftNIO, async-http-client, postgres-nio)"
        ),
        .default(enabledTraits: ["PCRE2"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // `swift package generate-documentation --target X` (`make docs`); not linked into any product.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // MARK: Server side (every use is behind the `Server` trait)
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // The demo page's policy hashes (SHA-256); jwt-kit already builds it on the server side.
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        // Who is asking: bearer JWTs (HS256, RS256, ES256) and the `Authorization: Bearer` header.
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.7.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        // `GET /metrics`: the Prometheus text exposition of the server's swift-metrics.
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        // MARK: Core Library
        .target(
            name: "SuggestCore",
            dependencies: [
                .product(name: "HeapModule", package: "swift-collections"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Pattern matching for token rules and recent-search exclusions: the only module that links libpcre2-8.
        .target(
            name: "SuggestPattern",
            dependencies: ["SuggestCore", .target(name: "CPCRE2", condition: .when(traits: ["PCRE2"]))]
        ),
        .systemLibrary(
            name: "CPCRE2",
            pkgConfig: "libpcre2-8",
            providers: [.apt(["libpcre2-dev"]), .brew(["pcre2"])]
        ),
        .target(
            name: "SuggestIndex",
            dependencies: ["SuggestCore", .product(name: "HeapModule", package: "swift-collections")]
        ),

        // MARK: Providers (they never import each other)
        .target(name: "SuggestRecents", dependencies: ["SuggestCore", "SuggestPattern"]),
        .target(name: "SuggestPopular", dependencies: ["SuggestCore", "SuggestIndex", "SuggestPattern"]),
        .target(name: "SuggestPrefix", dependencies: ["SuggestCore", "SuggestIndex"]),
        .target(
            name: "SuggestFuzzy",
            dependencies: ["SuggestCore", "SuggestIndex", .product(name: "HeapModule", package: "swift-collections")]
        ),
        .target(name: "SuggestTokens", dependencies: ["SuggestCore", "SuggestPattern"]),

        // MARK: Umbrella, formats, kits
        // Re-exports and `ProviderRegistry.builtIn`, nothing else.
        .target(
            name: "Suggest",
            dependencies: [
                "SuggestCore", "SuggestPattern", "SuggestIndex", "SuggestRecents", "SuggestPopular", "SuggestFuzzy",
                "SuggestPrefix", "SuggestTokens",
            ]
        ),
        // The `suggest batch` JSON protocol (line processor and answer encoder), shared by the CLI and the server.
        .target(name: "SuggestWire", dependencies: ["SuggestCore"]),
        // `.searchable` bound to a `SearchSession` (SuggestCore), under `#if canImport(SwiftUI)`: an empty module on
        // Linux. No test target: every decision is `SearchSession`'s, tested in SuggestCoreTests and SuggestTests.
        .target(name: "SuggestUI", dependencies: ["SuggestCore"]),
        // Conformance kit for provider authors (imports neither Testing nor XCTest: works from both).
        .target(name: "SuggestTesting", dependencies: ["SuggestCore"]),
        // `SuggestValidation.main(registry:)`: the whole main of a package's validator for its own provider types.
        .target(name: "SuggestValidation", dependencies: ["SuggestCore"]),
        // `suggest bench`'s measuring core: typing scripts, per-keystroke timing, reports, baselines, charts. Light
        // (the providers only), so an app author can bench an engine with providers of their own.
        .target(name: "SuggestBench", dependencies: ["Suggest"]),

        // MARK: Server side (trait `Server`; without it these modules compile empty)
        .target(
            name: "SuggestServer",
            dependencies: [
                "Suggest", "SuggestWire",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: server)),
                .product(
                    name: "HummingbirdWebSocket", package: "hummingbird-websocket", condition: .when(traits: server)),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: server)),
                .product(name: "Metrics", package: "swift-metrics", condition: .when(traits: server)),
                .product(name: "JWTKit", package: "jwt-kit", condition: .when(traits: server)),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth", condition: .when(traits: server)),
                .product(name: "Crypto", package: "swift-crypto", condition: .when(traits: server)),
                .product(name: "Prometheus", package: "swift-prometheus", condition: .when(traits: server)),
                // `--users-database`: per-user recents in PostgreSQL, on SuggestPostgres's connection code.
                .target(name: "SuggestPostgres", condition: .when(traits: server)),
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: server)),
            ],
            // The page `suggest serve --demo-page` serves at `GET /` (`DemoPage.bundled()`).
            resources: [.copy("Resources/search-page.html")]
        ),
        .target(
            name: "SuggestRemote",
            dependencies: [
                "SuggestCore", "SuggestWire",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: server)),
            ]
        ),
        .target(
            name: "SuggestPostgres",
            dependencies: [
                "SuggestCore", "SuggestIndex",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: server)),
            ]
        ),

        // MARK: Tools
        // `suggest`: query · batch · validate · demo · index · recents · bench; serve · import with the `Server`
        // trait. The demo's dictionary is a resource of its own, indexed at start. No target of this package applies
        // SuggestIndexPlugin: SwiftPM would build the plugin's tool (SuggestCore and SuggestIndex once more) before
        // anything else, about a minute of `make demo` on 2 cores. Tests/PluginExample, a package of its own, does.
        .executableTarget(
            name: "suggest",
            dependencies: [
                "Suggest",
                "SuggestBench",
                "SuggestDemo",
                "SuggestValidation",
                "SuggestWire",
                .target(name: "SuggestServer", condition: .when(traits: server)),
                .target(name: "SuggestRemote", condition: .when(traits: server)),
                .target(name: "SuggestPostgres", condition: .when(traits: server)),
                // `suggest serve --metrics` bootstraps `MetricsSystem` with the /metrics registry.
                .product(name: "CoreMetrics", package: "swift-metrics", condition: .when(traits: server)),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/SuggestCLI"
        ),
        // The embedded demo (a 20,000-word dictionary and a configuration) and what `suggest demo` prints with it.
        .target(
            name: "SuggestDemo",
            dependencies: ["Suggest", .product(name: "Logging", package: "swift-log")],
            resources: [.copy("Resources/demo")]
        ),
        // `make demo`: the demo alone, so that a first build compiles only the engine and its providers.
        .executableTarget(
            name: "suggest-demo", dependencies: ["Suggest", "SuggestDemo"], path: "Sources/SuggestDemoCommand"),
        // The build-tool plugin's worker: a `*.tsv` dictionary in, a saved prefix index out.
        .executableTarget(
            name: "SuggestIndexBuilder",
            dependencies: ["SuggestCore", "SuggestIndex"],
            path: "Tools/SuggestIndexBuilder"
        ),
        // The validator a package with provider types of its own writes (documented in SuggestValidation);
        // `suggest-validate` finds and runs it here too, and the CLI tests run it.
        .executableTarget(
            name: "suggest-validate-example",
            dependencies: ["Suggest", "SuggestValidation"],
            path: "Sources/SuggestValidateExample"
        ),

        // MARK: Plugins
        .plugin(
            name: "SuggestIndexPlugin",
            capability: .buildTool(),
            dependencies: ["SuggestIndexBuilder"]
        ),
        .plugin(
            name: "SuggestValidatePlugin",
            capability: .command(
                intent: .custom(
                    verb: "suggest-validate",
                    description: "Validate every *.suggest.json configuration in the package"
                )
            ),
            dependencies: ["suggest"]
        ),

        // MARK: Tests
        .testTarget(
            name: "SuggestCoreTests",
            dependencies: ["SuggestTestSupport", "SuggestCore", .product(name: "Logging", package: "swift-log")],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "SuggestPatternTests", dependencies: ["SuggestPattern"]),
        .testTarget(
            name: "SuggestIndexTests", dependencies: ["SuggestTestSupport", "SuggestIndex"],
            resources: [.copy("Fixtures")]),
        .testTarget(name: "SuggestRecentsTests", dependencies: ["SuggestTestSupport", "SuggestRecents"]),
        .testTarget(name: "SuggestPopularTests", dependencies: ["SuggestTestSupport", "SuggestPopular", "Suggest"]),
        .testTarget(
            name: "SuggestPrefixTests",
            dependencies: ["SuggestTestSupport", "SuggestPrefix", "SuggestIndex"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "SuggestFuzzyTests",
            dependencies: ["SuggestTestSupport", "SuggestFuzzy", "SuggestCore", "SuggestIndex", "SuggestPrefix"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "SuggestTokensTests", dependencies: ["SuggestTestSupport", "SuggestTokens"],
            resources: [.copy("Fixtures")]),
        .testTarget(name: "SuggestTests", dependencies: ["Suggest", "SuggestTesting"]),
        .testTarget(name: "SuggestWireTests", dependencies: ["SuggestWire", "Suggest"]),
        .testTarget(name: "SuggestTestingTests", dependencies: ["SuggestTesting", "Suggest"]),
        .testTarget(name: "SuggestBenchTests", dependencies: ["SuggestTestSupport", "SuggestBench", "Suggest"]),
        .testTarget(name: "SuggestDemoTests", dependencies: ["SuggestTestSupport", "SuggestDemo", "Suggest"]),
        .testTarget(
            name: "SuggestValidationTests", dependencies: ["SuggestTestSupport", "SuggestValidation", "SuggestCore"]),
        .testTarget(
            name: "SuggestCLITests",
            dependencies: [
                "SuggestTestSupport", "suggest", "suggest-demo", "suggest-validate-example", "Suggest", "SuggestDemo",
                "SuggestIndexBuilder",
            ],
            resources: [.copy("Fixtures")]
        ),
        // Server side: these test targets compile empty unless the `Server` trait is on (`make test-server`).
        .testTarget(
            name: "SuggestServerTests",
            dependencies: [
                "SuggestServer", "SuggestWire", "Suggest", "SuggestTestSupport",
                .target(name: "SuggestRemote", condition: .when(traits: server)),
                .target(name: "SuggestPostgres", condition: .when(traits: server)),
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: server)),
                .target(name: "suggest", condition: .when(traits: server)),
                .product(name: "HummingbirdTesting", package: "hummingbird", condition: .when(traits: server)),
                .product(
                    name: "HummingbirdWSTesting", package: "hummingbird-websocket", condition: .when(traits: server)),
                .product(name: "MetricsTestKit", package: "swift-metrics", condition: .when(traits: server)),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: server)),
                // Mints the bearer tokens of the identity tests.
                .product(name: "JWTKit", package: "jwt-kit", condition: .when(traits: server)),
            ],
            // Test-only keys: a JWKS and the private keys that sign its tokens.
            resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "SuggestRemoteTests", dependencies: ["SuggestRemote", "SuggestCore"]),
        // What the tests share: temporary folders removed when the test process exits, and the database tests'
        // loopback sockets (a proxy that cuts the database off, a silent port).
        .target(name: "SuggestTestSupport", path: "Tests/SuggestTestSupport"),
        .testTarget(
            name: "SuggestPostgresTests",
            dependencies: [
                "SuggestPostgres", "SuggestCore", "SuggestTestSupport",
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: server)),
            ]
        ),
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
