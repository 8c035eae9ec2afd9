import SuggestCore
import SuggestIndex
import Testing

@testable import SuggestPrefix

/// `exactMatch`: whether an exact dictionary entry ranks first or has to earn its place among the completions.
struct ExactMatchRuleTests {
    /// A word list holds fragments ("compr") beside the words they start.
    static let dictionary = WeightedDictionary(entries: [
        ("compr", 24, nil), ("comprehensive", 22_900, nil), ("compress", 500, nil), ("comprise", 60, nil),
        ("go", 1_000, nil), ("google", 500, nil), ("gopher", 50, nil),
    ])
    static let index = PrefixIndex(dictionary: dictionary)

    func titles(_ rule: ExactMatchRule?, _ text: String) -> [String] {
        let slot = ProviderSlot(PrefixProvider(index: Self.index), exactMatch: rule)
        return SuggestionEngine(slots: [slot]).suggestions(for: text).suggestions.map(\.title)
    }

    @Test func theDictionaryDefaultLetsALightFragmentRankByPopularity() {
        #expect(PrefixProvider(index: Self.index).exactMatch == .dictionaryDefault)
        // 24 × 3 = 72 ranks between "compress" (500) and "comprise" (60).
        #expect(titles(nil, "compr") == ["comprehensive", "compress", "compr", "comprise"])
        // A heavy exact entry stays first.
        #expect(titles(nil, "go") == ["go", "google", "gopher"])
    }

    /// The exact match is offered beside `limit` completions, not instead of the last one: a light fragment that
    /// ranks below the tenth completion, boosted, leaves the tenth in the list.
    @Test func anExactMatchDoesNotTakeTheLastCompletionsPlace() throws {
        var entries: [(String, Double, String?)] = [("b", 2, nil)]
        for (i, letter) in "acdefghijklm".enumerated() { entries.append(("b" + String(letter) + "x", Double(100 - i), nil)) }
        let index = PrefixIndex(dictionary: WeightedDictionary(entries: entries))
        let provider = PrefixProvider(index: index)
        var output = ProviderOutput()
        try provider.suggest(SuggestionRequest(query: PreparedQuery(SearchQuery(text: "b")), limit: 10), into: &output)
        #expect(output.candidates.count == 11)
        #expect(output.candidates.first?.title == "b" && output.candidates.first?.tier == .exact)
        // Through the engine (its default limit, 8): 2 × 3 = 6 ranks below every completion (89–100), so the list
        // holds the eight most popular.
        let shown = SuggestionEngine(slots: [ProviderSlot(provider)]).suggestions(for: "b").suggestions.map(\.title)
        #expect(shown == ["bax", "bcx", "bdx", "bex", "bfx", "bgx", "bhx", "bix"])
        // Exact first: the exact entry and seven completions.
        let first = SuggestionEngine(slots: [ProviderSlot(provider, exactMatch: .first)]).suggestions(for: "b")
        #expect(first.suggestions.map(\.title) == ["b", "bax", "bcx", "bdx", "bex", "bfx", "bgx", "bhx"])
        // Without an exact match, `limit` completions.
        output = ProviderOutput()
        try provider.suggest(SuggestionRequest(query: PreparedQuery(SearchQuery(text: "bx")), limit: 10), into: &output)
        #expect(output.candidates.isEmpty)
        output = ProviderOutput()
        try provider.suggest(SuggestionRequest(query: PreparedQuery(SearchQuery(text: "b")), limit: 3), into: &output)
        #expect(output.candidates.map(\.title) == ["b", "bax", "bcx", "bdx"])
        // Live updates: an added exact entry and a hidden completion keep the rule.
        try provider.insert("Bz", weight: 1)
        provider.remove("bax")
        output = ProviderOutput()
        try provider.suggest(SuggestionRequest(query: PreparedQuery(SearchQuery(text: "bz")), limit: 1), into: &output)
        #expect(output.candidates.map(\.title) == ["Bz"])
        // An added exact entry beside `limit` added completions (all three live, none in the built index).
        try provider.insert("bzb", weight: 40)
        try provider.insert("bza", weight: 50)
        output = ProviderOutput()
        try provider.suggest(SuggestionRequest(query: PreparedQuery(SearchQuery(text: "bz")), limit: 2), into: &output)
        #expect(output.candidates.map(\.title) == ["Bz", "bza", "bzb"])
        output = ProviderOutput()
        try provider.suggest(SuggestionRequest(query: PreparedQuery(SearchQuery(text: "b")), limit: 3), into: &output)
        #expect(output.candidates.map(\.title) == ["b", "bcx", "bdx", "bex"])
    }

    @Test func firstPutsTheExactEntryFirst() {
        #expect(titles(.first, "compr") == ["compr", "comprehensive", "compress", "comprise"])
        let result = SuggestionEngine(slots: [ProviderSlot(PrefixProvider(index: Self.index), exactMatch: .first)])
            .suggestions(for: "compr")
        #expect(result.suggestions.first?.tier == .exact)
    }

    @Test func byPopularityAndBoostRankTheExactEntryAmongPrefixes() {
        #expect(titles(.byPopularity, "compr") == ["comprehensive", "compress", "comprise", "compr"])
        #expect(titles(.boost(100), "compr") == ["comprehensive", "compr", "compress", "comprise"])
        let result = SuggestionEngine(slots: [ProviderSlot(PrefixProvider(index: Self.index), exactMatch: .boost(5))])
            .suggestions(for: "compr")
        let compr = result.suggestions.first { $0.title == "compr" }
        #expect(compr?.tier == .prefix)
        #expect(compr?.score == 120, "\(String(describing: compr))")
    }

    @Test func anExactMatchAnotherProviderPutsFirstStaysFirst() {
        // The same text from a static list (a real choice: exact first) beats the dictionary's rule.
        let pinned = StaticProvider(items: [.init(title: "Compr")])
        let engine = SuggestionEngine(slots: [
            ProviderSlot(PrefixProvider(index: Self.index)), ProviderSlot(pinned),
        ])
        let suggestions = engine.suggestions(for: "compr").suggestions
        #expect(suggestions.first?.tier == .exact)
        #expect(suggestions.first?.providers.sorted() == ["prefix", "static"])
        #expect(suggestions.count == 4)
    }

    @Test func theConfigurationReadsEveryFormAndNamesBadOnes() throws {
        let fixtures = PrefixProviderTests.fixtures
        var registry = ProviderRegistry.core
        registry.register(PrefixProvider.self)
        func slot(_ value: String) throws -> ProviderSlot {
            let json = #"{"version":1,"providers":[{"type":"prefix","dictionary":"words.tsv","exactMatch":"#
                + value + "}]}"
            return try EngineConfiguration(json: json, baseDirectory: fixtures, registry: registry).makeEngine()
                .slots[0]
        }
        func error(_ value: String) -> String {
            do {
                _ = try slot(value)
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        #expect(try slot(#""first""#).exactMatch == .first)
        #expect(try slot(#""none""#).exactMatch == .byPopularity)
        #expect(try slot(#""boost""#).exactMatch == .boost(ExactMatchRule.defaultBoost))
        #expect(try slot(#"{"boost": 3}"#).exactMatch == .boost(3))
        #expect(error(#""frist""#).contains(#"providers[0].exactMatch: expected "first", "boost", "none" or {"boost": factor}, found "frist" — did you mean "first"?"#))
        #expect(error(#"{"boost": 0.5}"#).contains("providers[0].exactMatch: boost: expected a number from 1 to 1000000, found 0.5"))
        #expect(error(#"{"bost": 2}"#).contains(#"providers[0].exactMatch: unknown key "bost""#))
        #expect(error("true").contains("providers[0].exactMatch: expected"))
        // A static provider keeps exact-first unless told otherwise.
        let json = #"{"version":1,"providers":[{"type":"static","items":[{"title":"a"}]}]}"#
        #expect(try EngineConfiguration(json: json, registry: registry).makeEngine().slots[0].exactMatch == .first)
    }
}
