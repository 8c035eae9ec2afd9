public import Foundation

/// The embedded demo: a 20,000-word English dictionary with frequencies and a configuration that uses it.
///
/// The dictionary is symspellpy's `frequency_dictionary_en_82_765.txt` (MIT license), cut to its 20,000 most
/// frequent words. `suggest demo` runs on it with no argument and no network.
public enum DemoData: Sendable {
    /// The folder holding `demo.suggest.json` and `words.tsv`.
    public static var directory: URL? {
        Bundle.module.url(forResource: "demo", withExtension: nil)
    }

    /// The demo configuration file.
    public static var configurationURL: URL? {
        directory?.appendingPathComponent("demo.suggest.json")
    }

    /// The searches the demo types, keystroke by keystroke.
    public static let searches: [String] = ["python", "pyhton", "recieve", "new york", "spicy chicken ", "from:al"]
}
