import Foundation
public import SuggestCore

/// Checks configuration files with a registry of provider types: what `suggest validate` does with the built-in
/// types, and what your package's validator does with your own.
///
/// `swift package suggest-validate` cannot know your provider types: the plugin runs the `suggest` tool, which
/// knows the built-in ones only. Give it a validator — an executable target of your package whose whole `main`
/// is one call — and the plugin uses it instead, so your types are checked fully (their keys, their values,
/// what their factories throw), with the same messages:
///
/// ```swift
/// // Package.swift
/// .executableTarget(name: "ValidateSuggest", dependencies: [
///     .product(name: "SuggestValidation", package: "swift-suggest"), "MyProviders",
/// ]),
///
/// // Sources/ValidateSuggest/main.swift
/// import MyProviders
/// import Suggest
/// import SuggestValidation
///
/// var registry = ProviderRegistry.builtIn
/// registry.register(ContactsProvider.self)
/// SuggestValidation.main(registry: registry)
/// ```
///
/// The plugin finds an executable of the package that depends on this module (or the one named with
/// `--validator NAME`), builds it and runs it on every `*.suggest.json`.
public enum SuggestValidation: Sendable {
    /// Checks `files` with `registry`: prints `FILE: OK (n providers: ids)` on standard output for each valid one
    /// and `error: FILE: place: message` on standard error for every problem of the others; a valid file whose
    /// recent or popular searches store cannot be read gets `warning: FILE: providers[i].store: why` on standard
    /// error (its status stays 0: the provider starts without what it could not read and leaves the file as it is),
    /// and so does a dictionary read with `"lenient": true` that had bad lines (`warning: FILE: DICTIONARY: 2 bad
    /// lines skipped …`, when it was read rather than a matching index file). Nothing is written: an index file a
    /// configuration names is checked when it exists, and never made or rebuilt.
    /// - Returns: 0 when every file is valid, 1 otherwise.
    @discardableResult
    ///
    /// `loading` is told the file before it is read (dictionaries are loaded and indexed: seconds for millions of
    /// entries) and `nil` once it is read, before anything is written: the `suggest` tool shows a progress line.
    public static func validate(
        files: [String], registry: ProviderRegistry, loading: ((String?) -> Void)? = nil
    ) -> Int32 {
        var status: Int32 = 0
        for file in files {
            loading?(file)
            // Nothing is written: an index file a configuration names is read when it matches, never made.
            let cache = DictionaryCache(writesFiles: false)
            let outcome = Result { () throws(ConfigurationErrors) in
                try EngineConfiguration(contentsOf: file, registry: registry, cache: cache)
            }
            loading?(nil)
            switch outcome {
            case .success(let configuration):
                let ids = configuration.slots.map(\.provider.id).joined(separator: ", ")
                write("\(file): OK (\(configuration.slots.count) providers: \(ids))", to: 1)
                // A store that cannot be read is state, not configuration: a warning (the provider starts without it and
                // leaves the file as it is).
                for warning in configuration.storeWarnings { write("warning: \(file): \(warning)", to: 2) }
                // Bad lines of a dictionary read with `"lenient": true` are skipped, not errors: said, not hidden.
                for (path, lines) in cache.skippedLines {
                    write("warning: \(file): \(path): \(lines) bad line\(lines == 1 ? "" : "s") skipped (\"lenient\": true)", to: 2)
                }
            case .failure(let error):
                status = 1
                for e in error.errors { write("error: \(e)", to: 2) }
            }
        }
        return status
    }

    /// The whole `main` of a package's validator: checks the files named in `arguments` (an optional leading
    /// `validate` is skipped, so `swift run ValidateSuggest validate a.suggest.json` works too) with `registry`,
    /// then exits: 0 when every file is valid, 1 when one is not, 64 for a usage error.
    public static func main(
        registry: ProviderRegistry,
        arguments: [String] = Array(CommandLine.arguments.dropFirst())
    ) -> Never {
        exit(run(registry: registry, arguments: arguments))
    }

    /// What ``main(registry:arguments:)`` does, without exiting: the exit status.
    public static func run(registry: ProviderRegistry, arguments: [String]) -> Int32 {
        var files = arguments
        if files.first == "validate" { files.removeFirst() }
        if files.contains("--help") || files.contains("-h") {
            write(usage(registry), to: 1)
            return 0
        }
        if let option = files.first(where: { $0.hasPrefix("-") && $0 != "-" }) {
            write("error: unknown option \(option)\n\(usage(registry))", to: 2)
            return 64
        }
        if files.isEmpty {
            write("error: no configuration file given\n\(usage(registry))", to: 2)
            return 64
        }
        return validate(files: files, registry: registry)
    }

    static func usage(_ registry: ProviderRegistry) -> String {
        "usage: \(CommandLine.arguments.first.map(basename) ?? "validate") [validate] FILE...\n"
            + "Checks swift-suggest configuration files; known provider types: "
            + registry.typeNames.joined(separator: ", ")
    }

    static func basename(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// One line, written at once (no buffering: a reader on a pipe sees it as it comes).
    static func write(_ text: String, to descriptor: Int32) {
        let handle = descriptor == 2 ? FileHandle.standardError : FileHandle.standardOutput
        try? handle.write(contentsOf: Data((text + "\n").utf8))
    }
}
