import Foundation
import Suggest
import Testing

/// `SuggestIndexPlugin` applied to this test target, as an app applies it: the `*.tsv` inside the `.copy` resource
/// folder becomes `words.idx` at the top of the bundle, and the recipe of the "Prebuilt indexes" article uses it.
struct PrebuiltIndexPluginTests {
    static var folder: String {
        get throws { try #require(Bundle.module.url(forResource: "Dictionaries", withExtension: nil)).path }
    }

    @Test func theBuildIndexedTheDictionaryOfTheResourceFolder() throws {
        let url = try #require(
            Bundle.module.url(forResource: "words", withExtension: "idx"), "words.idx is missing: the plugin did not run")
        let index = try PrefixIndex(contentsOfFile: url.path)
        let dictionary = try DictionaryLoader.load(path: try Self.folder + "/words.tsv")
        #expect(index.count == dictionary.count)
        #expect(index.count == 6)
        // SuggestIndexBuilder records the dictionary's file name; an index built at start records its whole path.
        #expect(index.dictionary.source == "words.tsv")
    }

    @Test func theArticlesRecipeHandsThePrebuiltIndexToBothProviders() throws {
        let folder = try Self.folder
        let url = try #require(Bundle.module.url(forResource: "words", withExtension: "idx"))
        let cache = DictionaryCache()
        let index = try PrefixIndex(contentsOfFile: url.path)
        #expect(cache.usePrebuiltIndex(index, forDictionaryAtPath: folder + "/words.tsv"))
        let configuration = try EngineConfiguration(
            contentsOf: folder + "/search.suggest.json", registry: .builtIn, cache: cache)
        let prefix = try #require(configuration.slots.lazy.compactMap { $0.provider as? PrefixProvider }.first)
        #expect(prefix.index.base.dictionary.source == "words.tsv")
        let engine = configuration.makeEngine()
        #expect(engine.suggestions(for: "py").suggestions.map(\.title) == ["python", "pytest", "pyramid"])
        // The fuzzy provider shares it: a typo still finds the word.
        #expect(engine.suggestions(for: "pyhton").suggestions.first?.title == "python")
    }
}
