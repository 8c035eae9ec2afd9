import Foundation
import PackagePlugin

/// Build-tool plugin: turns every `*.tsv` dictionary of a target into a saved prefix index, `NAME.idx`, that becomes
/// a resource of the target (`Bundle.module.url(forResource: "NAME", withExtension: "idx")`).
///
/// The index is what `suggest index` writes and what `PrefixIndex(contentsOfFile:)` loads; it records the
/// dictionary's fingerprint, so a loader can check it was built from the bytes it ships with. The build runs again
/// only when a dictionary changes. Thin on purpose: `SuggestIndexBuilder` does the work.
///
/// ```swift
/// .target(name: "MyApp", resources: [.copy("Dictionaries")],
///         plugins: [.plugin(name: "SuggestIndexPlugin", package: "swift-suggest")])
/// ```
@main
struct SuggestIndexPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let tool = try context.tool(named: "SuggestIndexBuilder")
        let dictionaries = Self.dictionaries(in: target)
        // Outputs are named after their input, and resources land side by side in the bundle: two dictionaries
        // with one name (in different folders) would overwrite each other's index.
        var seen: [String: URL] = [:]
        var commands: [Command] = []
        for dictionary in dictionaries {
            let name = dictionary.deletingPathExtension().lastPathComponent
            if let other = seen[name] {
                throw PluginError(
                    "\(dictionary.path) and \(other.path) would both be indexed as \(name).idx; rename one of them")
            }
            seen[name] = dictionary
            let output = context.pluginWorkDirectoryURL.appendingPathComponent(name + ".idx")
            commands.append(
                .buildCommand(
                    displayName: "Indexing \(dictionary.lastPathComponent) for \(target.name)",
                    executable: tool.url,
                    arguments: [dictionary.path, output.path],
                    inputFiles: [dictionary],
                    outputFiles: [output]
                )
            )
        }
        return commands
    }

    /// The target's `*.tsv` files: those SwiftPM lists, and those inside the folders a `.copy` resource names
    /// (SwiftPM lists such a folder as one file).
    static func dictionaries(in target: any SourceModuleTarget) -> [URL] {
        var found: Set<URL> = []
        for file in target.sourceFiles {
            let url = file.url.standardizedFileURL
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else { continue }
            if !isFolder.boolValue {
                if url.pathExtension == "tsv" { found.insert(url) }
                continue
            }
            guard let walker = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil) else {
                continue
            }
            for case let inner as URL in walker where inner.pathExtension == "tsv" {
                found.insert(inner.standardizedFileURL)
            }
        }
        return found.sorted { $0.path < $1.path }
    }
}

struct PluginError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
