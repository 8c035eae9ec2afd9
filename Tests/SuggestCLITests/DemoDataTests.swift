import Foundation
import Testing

import Suggest
@testable import suggest

/// The demo's index, prebuilt by `SuggestIndexPlugin` at build time, and what happens when it cannot be used.
struct DemoDataTests {
    func temporaryFile(_ name: String) -> String {
        NSTemporaryDirectory() + "suggest-demo-" + UUID().uuidString + "-" + name
    }

    @Test func thePluginShipsAPrebuiltIndexOfTheDemoDictionaryAndTheDemoUsesIt() throws {
        let url = try #require(DemoData.prebuiltIndexURL, "words.idx is missing: SuggestIndexPlugin did not run")
        let index = try PrefixIndex(contentsOfFile: url.path)
        let dictionary = try DictionaryLoader.load(path: try #require(DemoData.directory).path + "/words.tsv")
        #expect(index.count == dictionary.count)
        let (configuration, source) = try DemoData.configuration()
        #expect(source == .prebuilt)
        // The provider's index is the prebuilt one: SuggestIndexBuilder records the file's name only, where an index
        // built at start records the full path.
        let prefix = try #require(configuration.slots.lazy.compactMap { $0.provider as? PrefixProvider }.first)
        #expect(prefix.index.base.dictionary.source == "words.tsv")
        #expect(prefix.index.base.count == dictionary.count)
        let result = configuration.makeEngine().suggestions(for: "pyth")
        #expect(result.suggestions.first?.title == "python")
    }

    @Test func aCorruptPrebuiltIndexFallsBackToBuildingAndSaysWhy() throws {
        let path = temporaryFile("words.idx")
        try Data("not an index at all".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (configuration, source) = try DemoData.configuration(prebuiltIndex: URL(fileURLWithPath: path))
        guard case .builtAtStart(let reason) = source else {
            Issue.record("a corrupt index was used: \(source)")
            return
        }
        #expect(reason.contains(path))
        #expect(configuration.makeEngine().suggestions(for: "pyth").suggestions.first?.title == "python")
    }

    @Test func anIndexBuiltFromOtherBytesIsNotUsed() throws {
        let tsv = temporaryFile("other.tsv")
        let idx = temporaryFile("other.idx")
        try Data("python\t5\n".utf8).write(to: URL(fileURLWithPath: tsv))
        defer {
            try? FileManager.default.removeItem(atPath: tsv)
            try? FileManager.default.removeItem(atPath: idx)
        }
        let other = PrefixIndex.fingerprinted(
            dictionary: try DictionaryLoader.load(path: tsv), path: tsv, lenient: false)
        try other.write(toFile: idx)
        let (_, source) = try DemoData.configuration(prebuiltIndex: URL(fileURLWithPath: idx))
        let name = URL(fileURLWithPath: idx).lastPathComponent
        #expect(source == .builtAtStart(reason: name + " was built from other bytes"))
    }

    @Test func withoutAPrebuiltIndexTheDemoBuildsOne() throws {
        let (_, source) = try DemoData.configuration(prebuiltIndex: nil)
        #expect(source == .builtAtStart(reason: "no prebuilt index in this build"))
    }
    @Test func theEmbeddedDemoConfigurationLoads() throws {
        let url = try #require(DemoData.configurationURL)
        let configuration = try EngineConfiguration(contentsOf: url, registry: .builtIn)
        #expect(!configuration.slots.isEmpty)
    }
}
