import Foundation
import SuggestCore
@testable import SuggestIndex
import Testing

@testable import SuggestPrefix

struct PrefixProviderTests {
    static var fixtures: String { Bundle.module.path(forResource: "Fixtures", ofType: nil)! }

    var registry: ProviderRegistry {
        var registry = ProviderRegistry.core
        registry.register(PrefixProvider.self)
        return registry
    }

    func engine(_ provider: String, baseDirectory: String = fixtures) throws -> SuggestionEngine {
        let json = #"{"version":1,"providers":["# + provider + "]}"
        return try EngineConfiguration(json: json, baseDirectory: baseDirectory, registry: registry).makeEngine()
    }

    func configurationError(_ provider: String, baseDirectory: String = fixtures) -> String {
        let json = #"{"version":1,"providers":["# + provider + "]}"
        do {
            _ = try EngineConfiguration(json: json, baseDirectory: baseDirectory, registry: registry)
            return "no error"
        } catch {
            return error.description
        }
    }

    func titles(_ engine: SuggestionEngine, _ text: String, scope: String? = nil) -> [String] {
        let query = SearchQuery(text: text, scope: scope.map { SearchScope($0) })
        return engine.suggestions(for: query).suggestions.map(\.title)
    }

    @Test func completesByWeightThroughTheEngine() throws {
        let engine = try engine(#"{"type":"prefix","dictionary":"words.tsv"}"#)
        #expect(titles(engine, "py") == ["python", "pytorch", "pytest", "pyramid"])
        #expect(titles(engine, "new yo") == ["New York"])
        #expect(titles(engine, "") == [])
        let result = engine.suggestions(for: "p")
        #expect(result.suggestions.first?.providers == ["prefix"])
        #expect(result.suggestions.first?.tier == .prefix)
        #expect(result.suggestions.first?.popularity == 1000)
    }

    @Test func exactThenPrefixThenInfix() throws {
        let engine = try engine(#"{"type":"prefix","dictionary":"words.tsv","exactMatch":"first"}"#)
        let result = engine.suggestions(for: "news")
        #expect(result.suggestions.map(\.title) == ["news"])
        #expect(result.suggestions.map(\.tier) == [.exact])
        let york = engine.suggestions(for: "york").suggestions
        #expect(york.map(\.title) == ["New York"])
        #expect(york.map(\.tier) == [.wordPrefix])
        let rest = engine.suggestions(for: "rest").suggestions
        #expect(rest.map(\.title) == ["django-rest-framework", "djangoRestFramework"])
        #expect(titles(engine, "framework") == ["django-rest-framework", "djangoRestFramework"])
    }

    @Test func infixCanBeTurnedOff() throws {
        let engine = try engine(#"{"type":"prefix","dictionary":"words.tsv","infix":false}"#)
        #expect(titles(engine, "york") == [])
        #expect(titles(engine, "new") == ["news", "New York", "Newark"])
    }

    @Test func everyTypedWordMayStartAWordInAnyOrder() throws {
        let engine = try engine(#"{"type":"prefix","dictionary":"words.tsv"}"#)
        let inOrder = engine.suggestions(for: "dj re fr").suggestions
        #expect(inOrder.map(\.title) == ["django-rest-framework"])
        #expect(inOrder.first?.tier == .wordsInOrder)
        #expect(inOrder.first?.matchedRanges == [0..<2, 7..<9, 12..<14])
        let anyOrder = engine.suggestions(for: "flore caf").suggestions
        #expect(anyOrder.map(\.title) == ["Café de Flore"])
        #expect(anyOrder.first?.tier == .wordsAnyOrder)
        // "Café" is 5 UTF-8 bytes: "caf" covers "Caf", "flore" the last word.
        #expect(anyOrder.first?.matchedRanges == [0..<3, 9..<14])
        // An ASCII title is folded byte for byte: its ranges are its own offsets, sorted.
        let york = engine.suggestions(for: "york ne").suggestions
        #expect(york.map(\.title) == ["New York"])
        #expect(york.first?.matchedRanges == [0..<2, 4..<8])
        let off = try self.engine(#"{"type":"prefix","dictionary":"words.tsv","everyWord":false}"#)
        #expect(titles(off, "flore caf") == [])
        #expect(configurationError(#"{"type":"prefix","dictionary":"words.tsv","everyWord":"yes"}"#).contains("everyWord"))
    }

    @Test func typedWordsMayHaveTyposInAnEveryWordMatch() throws {
        let engine = try engine(#"{"type":"prefix","dictionary":"words.tsv"}"#)
        // "framwork" starts no word of any entry: one typo from "framework".
        let framework = engine.suggestions(for: "framwork djan").suggestions
        #expect(framework.map(\.title) == ["django-rest-framework"])
        #expect(framework.map(\.tier) == [.oneTypo])
        #expect(framework.map(\.typos) == [1])
        // Each range is the part of the title's word the typed word matched: "djan" and all of "framework".
        #expect(framework.first?.matchedRanges == [0..<4, 12..<21])
        // Without typos first: "york ne" is an any-order match with none.
        #expect(engine.suggestions(for: "york ne").suggestions.map(\.typos) == [0])
        // Too short to take a typo: "yrk" matches nothing.
        #expect(titles(engine, "yrk ne") == [])
        let off = try self.engine(#"{"type":"prefix","dictionary":"words.tsv","everyWord":false}"#)
        #expect(titles(off, "framwork djan") == [])
    }

    @Test func matchedRangesAreInTheOriginalText() throws {
        let engine = try engine(#"{"type":"prefix","dictionary":"words.tsv"}"#)
        let cafe = engine.suggestions(for: "cafe d").suggestions
        #expect(cafe.map(\.title) == ["Café de Flore"])
        // "Café" is 5 UTF-8 bytes in the original.
        #expect(cafe.first?.matchedRanges == [0..<5, 6..<7])
        let york = engine.suggestions(for: "york").suggestions
        #expect(york.first?.matchedRanges == [4..<8])
        let strasse = engine.suggestions(for: "strass").suggestions
        #expect(strasse.map(\.title) == ["Straße"])
        // "strass" covers "Straß" (ß folds to "ss"; it is 2 UTF-8 bytes in the original).
        #expect(strasse.first?.matchedRanges == [0..<6])
        let tokyo = engine.suggestions(for: "東").suggestions
        #expect(tokyo.first?.matchedRanges == [0..<3])
    }

    @Test func scopesFilter() throws {
        let engine = try engine(#"{"type":"prefix","dictionary":"words.tsv"}"#)
        #expect(titles(engine, "py", scope: "tools") == ["pytorch", "pytest", "pyramid"])
        #expect(titles(engine, "new", scope: "places") == ["news", "New York", "Newark"])
        #expect(titles(engine, "new", scope: "tools") == ["news"])
    }

    @Test func commonCompletionExtendsTheTypedText() throws {
        let engine = try engine(#"{"type":"prefix","dictionary":"words.tsv"}"#)
        #expect(engine.suggestions(for: "djan").commonCompletion == "django")
        #expect(engine.suggestions(for: "pyth").commonCompletion == "python")
        #expect(engine.suggestions(for: "py").commonCompletion == nil)  // python, pytorch, … share only "py"
    }

    @Test func liveUpdatesReachTheEngine() throws {
        let dictionary = WeightedDictionary(entries: [("swift", 10, nil), ("swiftly", 5, nil)])
        let provider = PrefixProvider(dictionary: dictionary)
        let engine = SuggestionEngine(providers: [provider])
        try provider.insert("swiftui", weight: 50)
        #expect(titles(engine, "sw") == ["swiftui", "swift", "swiftly"])
        provider.remove("swift")
        try provider.insert("swiftly", weight: 100)
        #expect(titles(engine, "sw") == ["swiftly", "swiftui"])
        #expect(provider.compact())
        #expect(titles(engine, "sw") == ["swiftly", "swiftui"])
        #expect(throws: PrefixIndexUpdateError.self) { try provider.insert("x", weight: -.infinity) }
    }

    @Test func configurationErrorsNameTheirPlace() throws {
        #expect(configurationError(#"{"type":"prefix"}"#).contains("providers[0]"))
        #expect(configurationError(#"{"type":"prefix"}"#).contains("dictionary"))
        let misspelt = configurationError(#"{"type":"prefix","dictionary":"words.tsv","infx":false}"#)
        #expect(misspelt.contains(#"providers[0]: unknown key "infx""#), "\(misspelt)")
        #expect(misspelt.contains(#"did you mean "infix"?"#), "\(misspelt)")
        let wrongType = configurationError(#"{"type":"prefix","dictionary":"words.tsv","infix":"yes"}"#)
        #expect(wrongType.contains("providers[0].infix"), "\(wrongType)")
        let missing = configurationError(#"{"type":"prefix","dictionary":"nope.tsv"}"#)
        #expect(missing.contains("providers[0].dictionary"), "\(missing)")
        #expect(missing.contains("no such file"), "\(missing)")
        // A near miss of a file beside it is named.
        let misspeltFile = configurationError(#"{"type":"prefix","dictionary":"wrods.tsv"}"#)
        #expect(misspeltFile.hasSuffix(#"wrods.tsv: no such file — did you mean "words.tsv"?"#), "\(misspeltFile)")
        let bad = configurationError(#"{"type":"prefix","dictionary":"bad.tsv"}"#)
        #expect(bad.contains(#"providers[0].dictionary: "#), "\(bad)")
        #expect(bad.contains(#"bad.tsv:4: weight "x" is not a number"#), "\(bad)")
        let lenient = try engine(#"{"type":"prefix","dictionary":{"path":"bad.tsv","lenient":true}}"#)
        #expect(titles(lenient, "a") == ["alpha", "apple"])
    }

    @Test func sameDictionaryIsIndexedOncePerConfiguration() throws {
        let json = #"{"version":1,"providers":[{"type":"prefix","id":"a","dictionary":"words.tsv"},"#
            + #"{"type":"prefix","id":"b","dictionary":"words.tsv","infix":false}]}"#
        let configuration = try EngineConfiguration(json: json, baseDirectory: Self.fixtures, registry: registry)
        let providers = configuration.slots.compactMap { $0.provider as? PrefixProvider }
        #expect(providers.count == 2)
        let a = providers[0].index.base
        let b = providers[1].index.base
        // The artifact is shared: both bases use the same key storage.
        #expect(a.keyBytes.withUnsafeBufferPointer { $0.baseAddress } == b.keyBytes.withUnsafeBufferPointer { $0.baseAddress })
    }
}
