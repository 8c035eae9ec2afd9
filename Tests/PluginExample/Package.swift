// swift-tools-version:6.2

import Foundation
import PackageDescription

// An app's package that applies SuggestIndexPlugin, as the "Prebuilt indexes" article shows: its test target ships
// `Dictionaries/words.tsv`, which the plugin turns into `words.idx` when the target builds. A package of its own, so
// that building swift-suggest (`make demo`, an app that links Suggest) never compiles the plugin's tool: SwiftPM builds
// the tools of every plugin a package applies before it builds anything else. Run with `make test-plugin`.

// SwiftPM names a path dependency after its folder, and a clone's folder name varies: derive it.
let suggestPackage = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
    name: "suggest-plugin-example",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        .package(path: "../../")
    ],
    targets: [
        .testTarget(
            name: "PrebuiltIndexPluginTests",
            dependencies: [.product(name: "Suggest", package: suggestPackage)],
            resources: [.copy("Dictionaries")],
            plugins: [.plugin(name: "SuggestIndexPlugin", package: suggestPackage)]
        )
    ]
)
