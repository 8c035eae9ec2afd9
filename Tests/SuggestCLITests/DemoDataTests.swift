import Foundation
import Testing

import Suggest
@testable import suggest

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
        let missing = URL(fileURLWithPath: NSTemporaryDirectory() + "suggest-demo-" + UUID().uuidString + ".json")
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
}
