public import Foundation
public import Logging
public import Suggest

/// The embedded demo: a 20,000-word English dictionary with frequencies and a configuration that uses it.
///
/// The dictionary is symspellpy's `frequency_dictionary_en_82_765.txt` (MIT license), cut to its 20,000 most
/// frequent words. `suggest demo` runs on it with no argument and no network; its prefix index is built at start (a
/// few milliseconds for 20,000 entries), so that building the command compiles no build-tool plugin.
public enum DemoData: Sendable {
    /// The folder holding `demo.suggest.json` and `words.tsv`.
    public static var directory: URL? {
        Bundle.module.url(forResource: "demo", withExtension: nil)
    }

    /// The demo configuration file.
    public static var configurationURL: URL? {
        directory?.appendingPathComponent("demo.suggest.json")
    }

    /// Reads the demo configuration.
    /// - Parameters:
    ///   - registry: the provider types (default `ProviderRegistry.builtIn`).
    ///   - configuration: the configuration file (default ``configurationURL``).
    ///   - logger: where the engine logs what it notes.
    /// - Throws: `ConfigurationErrors` when the configuration cannot be read (the bundle is missing).
    public static func configuration(
        registry: ProviderRegistry = .builtIn,
        configuration: URL? = configurationURL,
        logger: Logger = SuggestionEngine.makeDefaultLogger()
    ) throws(ConfigurationErrors) -> EngineConfiguration {
        guard let configuration else {
            throw ConfigurationErrors([
                ConfigurationError(
                    file: "demo.suggest.json",
                    message: "the embedded demo data is missing (was the Suggest resource bundle installed?)")
            ])
        }
        return try EngineConfiguration(contentsOf: configuration, registry: registry, logger: logger)
    }

    /// The searches the demo types, keystroke by keystroke.
    public static let searches: [String] = ["python", "pyhton", "recieve", "new york", "spicy chicken ", "from:al"]
}
