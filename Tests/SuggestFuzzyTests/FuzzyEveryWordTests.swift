import Foundation
import SuggestCore
import SuggestIndex
import SuggestPrefix
import Testing

@testable import SuggestFuzzy
import SuggestTestSupport

/// Every-word matches of the fuzzy provider on its own (``FuzzyOptions/everyWord``): each word of a query of several
/// words starts a word of the entry, at an inner word, in order or not, with typos in some words.
struct FuzzyEveryWordTests {
    static let dictionary = WeightedDictionary(entries: [
        ("The Little Mermaid", 500, nil), ("Little Women", 300, nil), ("mermaid tales", 50, nil),
        ("django-rest-framework", 900, nil), ("django", 2000, nil), ("restful django helpers", 20, nil),
        ("Éclair au café", 40, nil),
    ])

    func provider(everyWord: Bool = true) throws -> FuzzyProvider {
        var options = FuzzyOptions()
        options.everyWord = everyWord
        return try FuzzyProvider(index: FuzzyIndex(Self.dictionary), options: options)
    }

    func candidates(_ text: String, _ provider: FuzzyProvider) throws -> [SuggestionCandidate] {
        var output = ProviderOutput()
        try provider.suggest(SuggestionRequest(query: PreparedQuery(SearchQuery(text: text)), limit: 10), into: &output)
        return output.candidates
    }

    /// The best-ranked candidate with `title` (the engine merges the others into it).
    func candidate(_ title: String, for text: String, _ provider: FuzzyProvider) throws -> SuggestionCandidate? {
        try candidates(text, provider).filter { $0.title == title }.min { $0.tier < $1.tier }
    }

    @Test func anInnerWordInOrderAndAnyOrderAreFound() throws {
        let provider = try provider()
        let inner = try #require(try candidate("The Little Mermaid", for: "little mer", provider))
        #expect(inner.tier == .wordPrefix)
        #expect(inner.matchedRanges == [4..<10, 11..<14])
        let inOrder = try #require(try candidate("django-rest-framework", for: "dj re fr", provider))
        #expect(inOrder.tier == .wordsInOrder)
        // Also an abbreviation (a lower tier): offered once, in the better one.
        #expect(try candidates("dj re fr", provider).filter { $0.title == "django-rest-framework" }.count == 1)
        #expect(inOrder.matchedRanges == [0..<2, 7..<9, 12..<14])
        let anyOrder = try #require(try candidate("The Little Mermaid", for: "mermaid lit", provider))
        #expect(anyOrder.tier == .wordsAnyOrder)
        #expect(anyOrder.matchedRanges == [4..<7, 11..<18])
        // Outside ASCII the ranges are the original text's: "café" is 5 bytes.
        let accented = try #require(try candidate("Éclair au café", for: "cafe ecl", provider))
        #expect(accented.tier == .wordsAnyOrder)
        #expect(accented.matchedRanges == [0..<4, 11..<16])
    }

    @Test func typosApplyPerWord() throws {
        let match = try #require(try candidate("The Little Mermaid", for: "mermiad littl", try provider()))
        #expect(match.tier == .oneTypo || match.tier == .twoTypos)
        #expect(match.typos >= 1)
    }

    @Test func offTheyAreNotAndOneWordIsUnaffected() throws {
        let off = try provider(everyWord: false)
        #expect(try candidate("The Little Mermaid", for: "mermaid lit", off) == nil)
        #expect(try candidate("The Little Mermaid", for: "little mer", off) == nil)
        // One word: what the steps before offer, with or without every-word matching (no inner-word match).
        #expect(try candidates("merm", try provider()) == (try candidates("merm", off)))
        #expect(try candidate("The Little Mermaid", for: "merm", try provider()) == nil)
    }

    @Test func aScopeKeepsOnlyItsOwnEntriesAsTheOtherStepsDo() throws {
        let dictionary = WeightedDictionary(entries: [
            ("The Little Mermaid", 500, nil), ("Little Mermaid Tales", 50, "books"),
            ("Mermaid Little Song", 40, "music"),
        ])
        let provider = try FuzzyProvider(index: FuzzyIndex(dictionary))
        func titles(_ scope: String?) throws -> [String] {
            var output = ProviderOutput()
            let query = PreparedQuery(SearchQuery(text: "mermaid lit", scope: scope.map { SearchScope($0) }))
            try provider.suggest(SuggestionRequest(query: query, limit: 10), into: &output)
            return output.candidates.map(\.title).sorted()
        }
        #expect(try titles(nil) == ["Little Mermaid Tales", "Mermaid Little Song", "The Little Mermaid"])
        // Not the unscoped entry: the fuzzy provider's scope rule, not the prefix index's.
        #expect(try titles("books") == ["Little Mermaid Tales"])
        #expect(try titles("games") == [])
    }

    @Test func typosInSomeWordsStayWithinMaxTypos() throws {
        var options = FuzzyOptions()
        options.maxTypos = 0
        let strict = try FuzzyProvider(index: FuzzyIndex(Self.dictionary), options: options)
        #expect(try candidate("The Little Mermaid", for: "mermiad littl", strict) == nil)
        #expect(try candidate("The Little Mermaid", for: "mermaid litt", strict)?.tier == .wordsAnyOrder)
    }

    @Test func throughTheEngineEachEntryIsShownOnce() throws {
        let engine = SuggestionEngine(slots: [ProviderSlot(try provider())])
        let titles = engine.suggestions(for: "mermaid lit").suggestions.map(\.title)
        #expect(titles.first == "The Little Mermaid")
        #expect(Set(titles).count == titles.count)
    }

    @Test func aTypoMatchInAnotherWordOrderSaysSoAndRanksByPopularity() throws {
        let dictionary = WeightedDictionary(entries: [
            ("django-rest-framework", 900, nil), ("rest-framework-helpers", 300, nil), ("framework-for-rest", 50, nil),
        ])
        let fuzzy = try FuzzyProvider(index: FuzzyIndex(dictionary))
        let prefix = PrefixProvider(index: PrefixIndex(dictionary: dictionary))
        let inOrder = try #require(try candidate("framework-for-rest", for: "framewirk rest", fuzzy))
        #expect(inOrder.tier == .oneTypo && !inOrder.wordsOutOfOrder)
        let otherOrder = try #require(try candidate("django-rest-framework", for: "framewirk rest", fuzzy))
        #expect(otherOrder.tier == .oneTypo && otherOrder.wordsOutOfOrder)
        // Through the engine, alone and beside a prefix provider (which offers the same matches).
        for slots in [[ProviderSlot(fuzzy)], [ProviderSlot(prefix), ProviderSlot(fuzzy)]] {
            let suggestions = SuggestionEngine(slots: slots).suggestions(for: "framewirk rest").suggestions
            #expect(
                suggestions.map(\.title) == ["django-rest-framework", "rest-framework-helpers", "framework-for-rest"])
            #expect(suggestions.map(\.wordsOutOfOrder) == [true, true, false])
        }
    }

    /// A configuration of `providers` (JSON entries) over the fixture folder, with the fuzzy and prefix types.
    func load(_ providers: String) throws -> EngineConfiguration {
        var registry = ProviderRegistry()
        registry.register(FuzzyProvider.self)
        registry.register(PrefixProvider.self)
        let folder = (Fixture.path as NSString).deletingLastPathComponent
        return try EngineConfiguration(
            json: #"{ "version": 1, "providers": ["# + providers + "] }", baseDirectory: folder, registry: registry)
    }

    func fuzzyEveryWord(_ providers: String) throws -> Bool {
        let configuration = try load(providers)
        let fuzzy = try #require(configuration.slots.compactMap { $0.provider as? FuzzyProvider }.first)
        return fuzzy.options.everyWord
    }

    @Test func inJSONItIsOffByDefaultBesideAPrefixProviderOnTheSameDictionary() throws {
        let fuzzy = #"{ "type": "fuzzy", "dictionary": "words.tsv" }"#
        let prefix = #"{ "type": "prefix", "dictionary": "words.tsv" }"#
        #expect(try fuzzyEveryWord(fuzzy))
        #expect(!(try fuzzyEveryWord(#"{ "type": "fuzzy", "dictionary": "words.tsv", "everyWord": false }"#)))
        // A prefix provider on the same file (before or after it, its path a string or an object) offers the same
        // matches.
        #expect(!(try fuzzyEveryWord(prefix + ", " + fuzzy)))
        #expect(!(try fuzzyEveryWord(fuzzy + #", { "type": "prefix", "dictionary": {"path": "words.tsv"} }"#)))
        // When that provider has them off, they are not wanted either.
        let withoutEveryWord = #"{ "type": "prefix", "dictionary": "words.tsv", "everyWord": false }, "#
        #expect(!(try fuzzyEveryWord(withoutEveryWord + fuzzy)))
        #expect(!(try fuzzyEveryWord(#"{ "type": "prefix", "dictionary": "words.tsv", "infix": false }, "# + fuzzy)))
        // Unless the fuzzy entry asks for them; a prefix provider on another dictionary does not count.
        #expect(
            try fuzzyEveryWord(prefix + #", { "type": "fuzzy", "dictionary": "words.tsv", "everyWord": true }"#))
        let other = TestFolders.unique("fuzzy-every-word-", ".tsv")
        try "other\t1\n".write(toFile: other, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: other) }
        #expect(try fuzzyEveryWord(#"{ "type": "prefix", "dictionary": ""# + other + #"" }, "# + fuzzy))
    }

    @Test func aWrongValueIsReportedAtItsPath() throws {
        do {
            _ = try load(#"{ "type": "fuzzy", "dictionary": "words.tsv", "everyWord": "yes" }"#)
            Issue.record("expected an error")
        } catch let errors as ConfigurationErrors {
            #expect(errors.errors.contains { $0.path == "providers[0].everyWord" }, "\(errors)")
        }
    }
}
