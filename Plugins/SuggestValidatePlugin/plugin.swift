import Foundation
import PackagePlugin

/// `swift package suggest-validate`: validates every `*.suggest.json` in the package with `suggest validate`
/// (same messages, same exit codes). Thin on purpose: the work happens in the `suggest` tool.
@main
struct SuggestValidatePlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try context.tool(named: "suggest")
        let root = context.package.directoryURL
        var files: [String] = []
        if let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) {
            for case let url as URL in walker {
                let path = url.path
                if path.contains("/.build") || path.contains("/.swiftpm/") || path.contains("/.git/") {
                    if url.hasDirectoryPath { walker.skipDescendants() }
                    continue
                }
                if url.lastPathComponent.hasSuffix(".suggest.json") { files.append(path) }
            }
        }
        files.sort()
        // Explicit paths given after the verb are validated too.
        files += arguments.filter { !$0.hasPrefix("-") }
        if files.isEmpty {
            print("suggest-validate: no *.suggest.json files in \(root.path)")
            return
        }
        let process = Process()
        process.executableURL = tool.url
        process.arguments = ["validate"] + files
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus != 0 {
            Diagnostics.error("suggest validate found problems (exit \(process.terminationStatus))")
            throw PluginFailure(status: process.terminationStatus)
        }
    }
}

struct PluginFailure: Error, CustomStringConvertible {
    var status: Int32
    var description: String { "suggest validate exited with status \(status)" }
}
