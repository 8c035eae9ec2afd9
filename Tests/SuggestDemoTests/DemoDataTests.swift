import Foundation
import Testing

import Suggest
import SuggestDemo
import SuggestTestSupport

/// The embedded demo configuration and its dictionary.
struct DemoDataTests {
    @Test func theDemoConfigurationIndexesItsDictionaryAtStart() throws {
        let configuration = try DemoData.configuration()
        let dictionary = try DictionaryLoader.load(path: try #require(DemoData.directory).path + "/words.tsv")
        let prefix = try #require(configuration.slots.lazy.compactMap { $0.provider as? PrefixProvider }.first)
        #expect(prefix.index.base.count == dictionary.count)
        #expect(configuration.makeEngine().suggestions(for: "pyth").suggestions.first?.title == "python")
    }

    @Test func aMissingConfigurationIsALocatedError() throws {
        let missing = URL(fileURLWithPath: TestFolders.unique("suggest-demo-", ".json"))
        #expect {
            _ = try DemoData.configuration(configuration: missing)
        } throws: { error in
            (error as? ConfigurationErrors)?.errors.first?.description.contains(missing.path) == true
        }
    }

    @Test func theEmbeddedDemoConfigurationLoads() throws {
        let url = try #require(DemoData.configurationURL)
        let configuration = try EngineConfiguration(contentsOf: url, registry: .builtIn)
        #expect(!configuration.slots.isEmpty)
    }

    /// The demo types every search and ends with what an empty field shows; each keystroke's line has its time.
    @Test func theScriptTypesEverySearch() throws {
        let engine = try DemoData.configuration().makeEngine()
        var lines: [String] = []
        DemoScript.run(engine: engine, loadTime: .milliseconds(12), show: 3) { lines.append($0) }
        #expect(lines.first?.hasPrefix("swift-suggest demo — 5 providers: ") == true)
        #expect(lines.contains { $0.hasPrefix("loaded 20,000 entries in 12.0 ms") })
        for search in DemoData.searches { #expect(lines.contains("Typing \"\(search)\"")) }
        #expect(lines.filter { $0.contains(" µs ") }.count == DemoData.searches.map(\.count).reduce(0, +))
        #expect(lines.contains("Empty field after those searches:"))
        #expect(lines.last?.hasPrefix("  Recent: ") == true)
    }
}
