import Foundation
import Logging
import Suggest
import SuggestIndex

/// The embedded demo: a 20,000-word English dictionary with frequencies and a configuration that uses it.
///
/// The dictionary is symspellpy's `frequency_dictionary_en_82_765.txt` (MIT license), cut to its 20,000 most
/// frequent words. `suggest demo` runs on it with no argument and no network. Its prefix index is built at build time
/// by `SuggestIndexPlugin` (the `words.idx` resource) and loaded at start instead of being built.
enum DemoData: Sendable {
    /// The folder holding `demo.suggest.json` and `words.tsv`.
    static var directory: URL? {
        Bundle.module.url(forResource: "demo", withExtension: nil)
    }

    /// The demo configuration file.
    static var configurationURL: URL? {
        directory?.appendingPathComponent("demo.suggest.json")
    }

    /// The prefix index of `words.tsv` that `SuggestIndexPlugin` built with the package (nil in a build without the
    /// plugin).
    static var prebuiltIndexURL: URL? {
        Bundle.module.url(forResource: "words", withExtension: "idx")
    }

    /// Where the demo's prefix index came from.
    enum IndexSource: Hashable, Sendable, CustomStringConvertible {
        /// Loaded from the index built with the package.
        case prebuilt
        /// Built from `words.tsv` at start, for this reason (no prebuilt index, or one that cannot be used).
        case builtAtStart(reason: String)

        var description: String {
            switch self {
            case .prebuilt: "prebuilt at build time (words.idx)"
            case .builtAtStart(let reason): "built at start from words.tsv (\(reason))"
            }
        }
    }

    /// Reads the demo configuration with the prebuilt index when it is there and was built from the shipped
    /// `words.tsv`; otherwise the providers build the index as usual, and the returned source says why.
    /// - Parameters:
    ///   - registry: the provider types (default `ProviderRegistry.builtIn`).
    ///   - prebuiltIndex: the index file to try (default ``prebuiltIndexURL``).
    ///   - configuration: the configuration file (default ``configurationURL``); its `words.tsv` is the dictionary.
    ///   - logger: where the engine logs what it notes.
    /// - Throws: `ConfigurationErrors` when the configuration cannot be read (the bundle is missing).
    static func configuration(
        registry: ProviderRegistry = .builtIn,
        prebuiltIndex: URL? = prebuiltIndexURL,
        configuration: URL? = configurationURL,
        logger: Logger = SuggestionEngine.makeDefaultLogger()
    ) throws(ConfigurationErrors) -> (EngineConfiguration, IndexSource) {
        guard let configuration else {
            throw ConfigurationErrors([
                ConfigurationError(
                    file: "demo.suggest.json",
                    message: "the embedded demo data is missing (was the Suggest resource bundle installed?)")
            ])
        }
        let cache = DictionaryCache()
        let source: IndexSource
        // The path as the configuration resolves `"dictionary": "words.tsv"`: its folder, "/", the name.
        let dictionaryPath = (configuration.path as NSString).deletingLastPathComponent + "/words.tsv"
        if let prebuiltIndex {
            do {
                let index = try PrefixIndex(contentsOfFile: prebuiltIndex.path)
                source =
                    cache.usePrebuiltIndex(index, forDictionaryAtPath: dictionaryPath)
                    ? .prebuilt : .builtAtStart(reason: "\(prebuiltIndex.lastPathComponent) was built from other bytes")
            } catch {
                source = .builtAtStart(reason: error.description)
            }
        } else {
            source = .builtAtStart(reason: "no prebuilt index in this build")
        }
        let loaded = try EngineConfiguration(
            contentsOf: configuration, registry: registry, cache: cache, logger: logger)
        return (loaded, source)
    }

    /// The searches the demo types, keystroke by keystroke.
    static let searches: [String] = ["python", "pyhton", "recieve", "new york", "spicy chicken ", "from:al"]
}
