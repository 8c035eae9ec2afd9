import Foundation

import SuggestCore
import SuggestIndex
import SuggestPrefix
import Testing

@testable import SuggestFuzzy

/// Loads the test dictionary once.
enum Fixture {
    static let path = Bundle.module.url(forResource: "words", withExtension: "tsv", subdirectory: "Fixtures")!.path
    static let dictionary = try! DictionaryLoader.load(path: path)
    static let index = FuzzyIndex(dictionary)

    static func provider(_ configure: (inout FuzzyOptions) -> Void = { _ in }) -> FuzzyProvider {
        var options = FuzzyOptions()
        configure(&options)
        return try! FuzzyProvider(index: index, options: options)
    }

    /// The provider's own candidates for `text`, ranked like the engine would (tier, typos, popularity).
    static func candidates(
        _ text: String,
        limit: Int = 10,
        provider: FuzzyProvider = provider(),
        previous: (any Sendable)? = nil
    ) -> (candidates: [SuggestionCandidate], state: (any Sendable)?) {
        var output = ProviderOutput()
        let request = SuggestionRequest(query: PreparedQuery(SearchQuery(text: text)), limit: limit, previousState: previous)
        try! provider.suggest(request, into: &output)
        let ranked = output.candidates.sorted { a, b in
            if a.tier != b.tier { return a.tier < b.tier }
            if a.typos != b.typos { return a.typos < b.typos }
            return a.popularity > b.popularity
        }
        return (ranked, output.state)
    }

    static func titles(_ text: String, provider: FuzzyProvider = provider()) -> [String] {
        candidates(text, provider: provider).candidates.map(\.title)
    }
}


struct FuzzyProviderTests {
    // MARK: Typos in what has been typed so far

    @Test func typoInThePrefixFindsTheCompletion() throws {
        let found = Fixture.candidates("pyhto").candidates
        let python = try #require(found.first { $0.title == "python" })
        #expect(python.tier == .oneTypo)
        #expect(python.typos == 1)
        // "pyhto" vs "pytho": one transposition, highlighted up to the matched prefix.
        #expect(python.matchedRanges == [0..<5])
    }

    @Test func substitutionInAPrefixIsOneTypo() throws {
        let found = Fixture.candidates("seperat").candidates
        let separate = try #require(found.first { $0.title == "separate" })
        #expect(separate.tier == .oneTypo)
        #expect(found.contains { $0.title == "separation" && $0.tier == .oneTypo })
    }

    @Test func transpositionCountsOnceOnlyWhenEnabled() throws {
        let withSwaps = Fixture.candidates("pyhton").candidates.first { $0.title == "python" }
        #expect(withSwaps?.typos == 1)
        let noSwaps = Fixture.provider {
            $0.transpositions = false
            $0.subsequence = false
        }
        // Without transpositions the swap is two substitutions: a completion with two typos needs 8 characters by
        // default ("pyhto" is three edits from the whole word "python")...
        #expect(Fixture.candidates("pyhto").candidates.first { $0.title == "python" }?.typos == 1)
        #expect(!Fixture.titles("pyhto", provider: noSwaps).contains("python"))
        // ... while a whole word two typos away is offered from 5 characters.
        let whole = Fixture.candidates("pyhton", provider: noSwaps).candidates.first { $0.title == "python" }
        #expect(whole?.typos == 2)
        #expect(whole?.tier == .twoTypos)
    }

    // MARK: Whole misspelt words

    @Test func wholeMisspeltWordFindsTheWord() throws {
        let found = Fixture.candidates("recieve").candidates
        let receive = try #require(found.first { $0.title == "receive" })
        #expect(receive.tier == .oneTypo)
        #expect(receive.matchedRanges == [0..<7])
    }

    @Test func completedMisspeltWordMatchesWholeWordsOnly() throws {
        // A trailing space says the word is complete: "received" is two edits from "recieve" as a whole word
        // (one typo allowed here).
        let found = Fixture.titles("recieve ", provider: Fixture.provider { $0.maxTypos = 1 })
        #expect(found.contains("receive"))
        #expect(!found.contains("received"))
        #expect(!found.contains("receiver"))
    }

    // MARK: Abbreviations and subsequences

    @Test func abbreviationMatchesAsSubsequence() throws {
        let found = Fixture.candidates("gthb").candidates
        let github = try #require(found.first { $0.title == "github" })
        #expect(github.tier == .subsequence)
        #expect(github.typos == 0)
        #expect(github.matchedRanges == [0..<1, 2..<4, 5..<6])
    }

    @Test func initialsMatchWordStartsAndScoreAboveGappyMatches() throws {
        let found = Fixture.candidates("nyt").candidates
        let times = try #require(found.first { $0.title == "New York Times" })
        #expect(times.tier == .subsequence)
        #expect(times.matchedRanges == [0..<1, 4..<5, 9..<10])
        // "nytimes" starts with "nyt": a prefix match, ranked first.
        #expect(found.first?.title == "nytimes")
        #expect(found.first?.tier == .prefix)
    }

    @Test func camelCaseHumpsStartWords() throws {
        let scorer = SubsequenceScorer(query: Array("drf".utf8), original: "drf", smartCase: true)
        let camel = Array("djangorestframework".utf8)
        let original = Array("djangoRestFramework".utf8)
        let withHumps = camel.withUnsafeBufferPointer { k in
            original.withUnsafeBufferPointer { o in scorer.score(key: k, original: o, positions: nil) }
        }
        let withoutHumps = camel.withUnsafeBufferPointer { k in scorer.score(key: k, original: nil, positions: nil) }
        // Without the original's case, "r" and "f" are mid-word consonants: not an abbreviation.
        #expect(withHumps != nil)
        #expect(withoutHumps == nil)
        #expect(Fixture.candidates("drf").candidates.first?.title == "djangoRestFramework")
    }

    @Test func smartCaseMakesUppercaseQueriesCaseSensitive() throws {
        // "NYT" has uppercase letters: it matches "New York Times" but not "nytimes" as a subsequence.
        let found = Fixture.candidates("NYT", provider: Fixture.provider { $0.prefixMatches = false }).candidates
        #expect(found.contains { $0.title == "New York Times" && $0.tier == .subsequence })
        #expect(!found.contains { $0.title == "nytimes" && $0.tier == .subsequence })
        let lower = Fixture.candidates("nyt", provider: Fixture.provider { $0.prefixMatches = false }).candidates
        #expect(lower.contains { $0.title == "New York Times" })
    }

    @Test func vowelsMayBeSkippedInsideAWord() throws {
        let button = try #require(Fixture.candidates("btn").candidates.first { $0.title == "button" })
        #expect(button.tier == .subsequence)
    }

    @Test func scatteredLettersAreNotAnAbbreviation() throws {
        // p‥y‥h‥t‥o occur in order in "polyphonic ringtones", but skipping consonants mid-word is not an
        // abbreviation: the popular phrase must not outrank the one-typo completion.
        let found = Fixture.candidates("pyhto").candidates
        #expect(!found.contains { $0.title == "polyphonic ringtones" })
        #expect(found.first?.title == "python")
    }

    @Test func aTypoWithinBudgetIsReportedAsTypoNotSubsequence() throws {
        // "recie" is a subsequence of "recipe" but also one missing letter away from it.
        let recipe = try #require(Fixture.candidates("recie").candidates.first { $0.title == "recipe" })
        #expect(recipe.tier == .oneTypo)
    }

    // MARK: Length thresholds

    @Test(arguments: [(1, 0), (3, 0), (4, 1), (7, 1), (8, 2), (30, 2)])
    func defaultTypoBudgetFollowsLength(length: Int, typos: Int) {
        #expect(FuzzyOptions().typos(forLength: length) == typos)
    }

    @Test func noTypoUnderFourCharacters() {
        let provider = Fixture.provider { $0.subsequence = false }
        // "pyh" is one edit from "pyt", but 3 characters allow no typo.
        #expect(!Fixture.titles("pyh", provider: provider).contains("python"))
        // "pyht" (4) allows one.
        #expect(Fixture.titles("pyht", provider: provider).contains("python"))
    }

    @Test func twoTyposOnlyFromTheConfiguredLength() throws {
        let provider = Fixture.provider { $0.subsequence = false }
        // "xythn" needs two edits (x→p, o inserted): not allowed at 5 characters by default (a wrong first letter
        // is forgiven only as the only typo).
        #expect(!Fixture.titles("xythn", provider: provider).contains("python"))
        let lenient = Fixture.provider {
            $0.subsequence = false
            $0.minLengthTwoTypos = 5
            $0.exactPrefixLength = 0
        }
        let python = try #require(Fixture.candidates("xythn", provider: lenient).candidates.first { $0.title == "python" })
        #expect(python.tier == .twoTypos)
        #expect(python.typos == 2)
        // Two typos from 8 characters by default.
        let separation = try #require(Fixture.candidates("seperatoin").candidates.first { $0.title == "separation" })
        #expect(separation.tier == .twoTypos)
    }

    @Test func exactPrefixLengthKeepsTheFirstCharacters() throws {
        // By default a wrong first character is forgiven only when it is the only typo.
        let xython = try #require(Fixture.candidates("xython").candidates.first { $0.title == "python" })
        #expect(xython.tier == .oneTypo)
        #expect(Fixture.titles("ypthon").contains("python"))  // swapped first letters
        #expect(Fixture.titles("ython").contains("python"))  // first letter missing
        // A wrong first letter alone: in whole words from 5 characters ("rather" → gather), not at 4 ("bath" → path).
        let noSubsequences = Fixture.provider { $0.subsequence = false }
        #expect(Fixture.titles("rather", provider: noSubsequences).contains("gather"))
        #expect(!Fixture.titles("bath", provider: noSubsequences).contains("path"))
        // A wrong first letter and one more typo: not while typing ("xpth")...
        #expect(!Fixture.titles("xpth", provider: noSubsequences).contains("python"))
        // ... but in a whole word from 6 characters, when the list is not full.
        #expect(Fixture.candidates("xpthon", provider: noSubsequences).candidates.first { $0.title == "python" }?.typos == 2)
        #expect(Fixture.titles("pxthon").contains("python"))
        // Not forgiven, the first character must be right (like Lucene's fuzzy suggester).
        let strict = Fixture.provider { $0.forgiveWrongPrefix = false }
        #expect(!Fixture.titles("xython", provider: strict).contains("python"))
        #expect(Fixture.titles("pxthon", provider: strict).contains("python"))
        let anywhere = Fixture.provider {
            $0.exactPrefixLength = 0
            $0.forgiveWrongPrefix = false
        }
        #expect(Fixture.titles("xython", provider: anywhere).contains("python"))
        let two = Fixture.provider {
            $0.exactPrefixLength = 2
            $0.forgiveWrongPrefix = false
        }
        #expect(!Fixture.titles("pxthon", provider: two).contains("python"))
        #expect(Fixture.titles("pxthon", provider: Fixture.provider { $0.exactPrefixLength = 2 }).contains("python"))
    }

    @Test func lastResortFindsWholeWordsThreeTyposAwayWhenTheListIsNotFull() throws {
        let provider = Fixture.provider { $0.subsequence = false }
        // "saparetoin": a for e, e for a, o and i swapped.
        let separation = try #require(
            Fixture.candidates("saparetoin", provider: provider).candidates.first { $0.title == "separation" })
        #expect(separation.tier == .twoTypos)
        #expect(separation.typos == 3)
        // A wrong first letter and one more typo ("aeparatoin": a for s, o and i swapped).
        let wrongFirst = Fixture.candidates("aeparatoin", provider: provider).candidates.first { $0.title == "separation" }
        #expect(wrongFirst?.typos == 2)
        #expect(!Fixture.titles("aeparatoin", provider: Fixture.provider {
            $0.subsequence = false
            $0.forgiveWrongPrefix = false
        }).contains("separation"))
        // Off, or under the length.
        let off = Fixture.provider {
            $0.subsequence = false
            $0.minLengthThreeTyposWholeWord = 0
        }
        #expect(!Fixture.titles("saparetoin", provider: off).contains("separation"))
        let eleven = Fixture.provider {
            $0.subsequence = false
            $0.minLengthThreeTyposWholeWord = 11
        }
        #expect(!Fixture.titles("saparetoin", provider: eleven).contains("separation"))
        // Nor when the list is already full: a limit of one, filled by a two-typo match.
        let full = SuggestionEngine(slots: [ProviderSlot(provider)], options: { var o = EngineOptions(); o.limit = 1; return o }())
        let shown = full.suggestions(for: "seperatoin").suggestions
        #expect(shown.map(\.title) == ["separation"])
        #expect(shown.first?.typos == 2)
        // Three typos rank after every two-typo match.
        let ranked = SuggestionEngine(slots: [ProviderSlot(provider)]).suggestions(for: "saparetoin").suggestions
        #expect(ranked.map(\.typos) == ranked.map(\.typos).sorted())
    }

    @Test func wholeWordsTwoTyposAwayFromSixCharacters() throws {
        let provider = Fixture.provider { $0.subsequence = false }
        // "pyhtnn": h and t swapped, n for o: a whole word two typos away, below every completion.
        let python = try #require(Fixture.candidates("pyhtnn", provider: provider).candidates.first { $0.title == "python" })
        #expect(python.tier == .twoTypos)
        #expect(python.typos == 2)
        #expect(python.matchedRanges == [0..<6])
        // Not from 5 ("pyhtn"), nor when configured from 7.
        #expect(!Fixture.titles("pyhtn", provider: provider).contains("python"))
        let seven = Fixture.provider {
            $0.subsequence = false
            $0.minLengthTwoTyposWholeWord = 7
        }
        #expect(!Fixture.titles("pyhtnn", provider: seven).contains("python"))
        // Only when the list is not full: "recive" has "relieve" two typos away, but with a limit of one the list
        // is full of one-typo matches ("receive"), so that walk does not even run.
        #expect(Fixture.candidates("recive", limit: 10, provider: provider).candidates.contains {
            $0.title == "relieve" && $0.typos == 2
        })
        let one = Fixture.candidates("recive", limit: 1, provider: provider).candidates
        #expect(!one.contains { $0.typos == 2 })
        #expect(one.contains { $0.title == "receive" })
        // Completions get the second typo only from minLengthTwoTypos: "seperti" is two typos from "separati".
        #expect(!Fixture.titles("seperti", provider: provider).contains("separation"))
        let sevenForCompletions = Fixture.provider {
            $0.subsequence = false
            $0.minLengthTwoTypos = 7
        }
        #expect(Fixture.titles("seperti", provider: sevenForCompletions).contains("separation"))
    }

    // MARK: Tiers against prefix matches

    @Test func exactAndPrefixMatchesComeFirstWhenFuzzyRunsAlone() throws {
        let found = Fixture.candidates("python").candidates
        #expect(found.first?.title == "python")
        #expect(found.first?.tier == .exact)
        let pyth = Fixture.candidates("pyth").candidates
        #expect(pyth.first?.title == "python")
        #expect(pyth.first?.tier == .prefix)
        // "path" is one substitution from "pyth" and far more popular, but ranks below the prefix match.
        let path = try #require(pyth.first { $0.title == "path" })
        #expect(path.tier == .oneTypo)
    }

    @Test func typoMatchNeverPushesAPrefixCompletionOutInTheEngine() {
        let engine = SuggestionEngine(slots: [ProviderSlot(Fixture.provider())], options: {
            var o = EngineOptions()
            o.limit = 1
            return o
        }())
        let result = engine.suggestions(for: "pyth")
        #expect(result.suggestions.map(\.title) == ["python"])
    }

    @Test func withPrefixMatchesOffTheProviderOffersOnlyFuzzyTiers() {
        let found = Fixture.candidates("pyth", provider: Fixture.provider { $0.prefixMatches = false }).candidates
        #expect(!found.contains { $0.tier <= .prefix })
        #expect(found.contains { $0.title == "path" })
    }

    // MARK: Unicode

    @Test func foldedAccentsMatchExactly() throws {
        let cafe = try #require(Fixture.candidates("cafe").candidates.first { $0.title == "Café" })
        #expect(cafe.tier == .exact)
        #expect(cafe.matchedRanges == [0..<5])  // "é" is two UTF-8 bytes in the title
        let strasse = try #require(Fixture.candidates("strasse").candidates.first { $0.title == "straße" })
        #expect(strasse.tier == .exact)
    }

    @Test func typosCountCharactersNotBytes() throws {
        // Cyrillic letters are two UTF-8 bytes; the swap "кс" ↔ "ск" is one typo.
        let moscow = try #require(Fixture.candidates("моксва").candidates.first { $0.title == "Москва" })
        #expect(moscow.tier == .oneTypo)
        #expect(moscow.matchedRanges == [0..<12])
        // A substitution of one accented letter is one typo too.
        let anywhere = Fixture.provider { $0.exactPrefixLength = 0 }
        let cafe = try #require(Fixture.candidates("kafé", provider: anywhere).candidates.first { $0.title == "Café" })
        #expect(cafe.typos == 1)
    }

    @Test func nonASCIIAbbreviation() throws {
        // Two letters: below the default minimum of 3 for subsequences.
        #expect(!Fixture.candidates("сп").candidates.contains { $0.tier == .subsequence })
        let found = Fixture.candidates("сп", provider: Fixture.provider { $0.subsequenceMinLength = 2 }).candidates
        let city = try #require(found.first { $0.title == "Санкт-Петербург" })
        #expect(city.tier == .subsequence)
        #expect(city.matchedRanges == [0..<2, 11..<13])
    }

    // MARK: Empty and huge queries

    @Test(arguments: ["", " ", "  -- "])
    func emptyQueryOffersNothing(text: String) {
        #expect(Fixture.candidates(text).candidates.isEmpty)
    }

    @Test func hugeQueryIsAnsweredWithoutTypos() {
        let huge = String(repeating: "python", count: 2_000)
        let found = Fixture.candidates(huge).candidates
        #expect(found.isEmpty)
        let engine = SuggestionEngine(slots: [ProviderSlot(Fixture.provider())])
        let result = engine.suggestions(for: huge)
        #expect(result.suggestions.isEmpty)
        #expect(result.diagnostics.providers.allSatisfy { if case .answered = $0.outcome { true } else { false } })
    }

    @Test func longQueryStillMatchesItsPrefixExactly() {
        let provider = Fixture.provider { $0.maxTypoQueryLength = 3 }
        #expect(Fixture.titles("separa", provider: provider).contains("separate"))
        #expect(!Fixture.titles("seperat", provider: provider).contains("separate"))
    }

    // MARK: Typing sessions

    @Test func typingSessionGivesTheSameAnswersAsColdQueries() {
        var state: (any Sendable)? = nil
        for text in ["g", "gt", "gth", "gthb", "gthbx", "n", "ny", "nyt"] {
            let warm = Fixture.candidates(text, previous: state)
            let cold = Fixture.candidates(text)
            #expect(warm.candidates.map(\.title) == cold.candidates.map(\.title), "\(text)")
            state = warm.state
        }
    }

    @Test func scopeFiltersEntries() {
        let dictionary = WeightedDictionary(entries: [
            (text: "apple pie", weight: 5, scope: "recipes"),
            (text: "apple", weight: 1, scope: "fruits"),
        ])
        let provider = try! FuzzyProvider(dictionary: dictionary)
        var output = ProviderOutput()
        let request = SuggestionRequest(
            query: PreparedQuery(SearchQuery(text: "appel", scope: "fruits")),
            limit: 5
        )
        try! provider.suggest(request, into: &output)
        #expect(output.candidates.map(\.title) == ["apple"])
    }
}

struct FuzzyRankingTests {
    static let dictionary = WeightedDictionary(entries: [
        (text: "language", weight: 100, scope: nil),
        (text: "language and", weight: 400, scope: nil),
        (text: "languages", weight: 30, scope: nil),
        (text: "languages of", weight: 300, scope: nil),
    ])

    static func ranked(_ text: String, _ options: FuzzyOptions = FuzzyOptions()) -> [String] {
        let engine = SuggestionEngine(slots: [ProviderSlot(try! FuzzyProvider(dictionary: dictionary, options: options))])
        return engine.suggestions(for: text).suggestions.map(\.title)
    }

    @Test func wholeWordCorrectionsRankBeforeCompletionsOfTheSameTier() {
        // "languags" is one edit from "language" and from "languages" as whole words.
        let boosted = Self.ranked("languags")
        #expect(Array(boosted.prefix(2)) == ["language", "languages"])
        var off = FuzzyOptions()
        off.wholeWordBoost = 1
        off.phrasePenalty = 1
        off.completionLengthPenalty = 1
        #expect(Self.ranked("languags", off).first == "language and")
    }

    @Test func withATypoCompletionsCloseToTheTypedLengthRankFirst() {
        let dictionary = WeightedDictionary(entries: [
            (text: "exercise", weight: 100, scope: nil),
            (text: "exercised", weight: 20, scope: nil),
            (text: "exercisers", weight: 30, scope: nil),
            (text: "exerciseable", weight: 60, scope: nil),
            (text: "exercise of", weight: 3500, scope: nil),
        ])
        func ranked(_ options: FuzzyOptions) -> [String] {
            let provider = try! FuzzyProvider(dictionary: dictionary, options: options)
            return SuggestionEngine(slots: [ProviderSlot(provider)]).suggestions(for: "exersise").suggestions
                .map(\.title)
        }
        // "exersise" (the end of "exersised" not typed yet): the whole word first (boost), then by popularity
        // halved per character beyond the corrected prefix: exercised 20/2, exercisers 30/4, exerciseable 60/16,
        // exercise of 3500/100/8.
        #expect(ranked(FuzzyOptions()) == ["exercise", "exercised", "exercisers", "exercise of", "exerciseable"])
        var off = FuzzyOptions()
        off.completionLengthPenalty = 1
        // By popularity alone (the phrase still ÷100): exerciseable 60, exercise of 35, exercisers 30, exercised 20.
        #expect(ranked(off) == ["exercise", "exerciseable", "exercise of", "exercisers", "exercised"])
    }

    @Test func aWordBeingSpeltIsNotTakenForAnAbbreviationOfAPhrase() {
        let dictionary = WeightedDictionary(entries: [
            (text: "become", weight: 10, scope: nil),
            (text: "both companies", weight: 1000, scope: nil),
            (text: "github", weight: 10, scope: nil),
            (text: "gotham", weight: 10, scope: nil),
        ])
        func ranked(_ text: String, _ options: FuzzyOptions = FuzzyOptions()) -> [String] {
            var engineOptions = EngineOptions()
            engineOptions.limit = 1
            let provider = try! FuzzyProvider(dictionary: dictionary, options: options)
            return SuggestionEngine(slots: [ProviderSlot(provider)], options: engineOptions).suggestions(for: text)
                .suggestions.map(\.title)
        }
        // "bocom": one typo from "becom(e)"; "BOth COMpanies" would need typed vowels inside words.
        #expect(ranked("bocom") == ["become"])
        var off = FuzzyOptions()
        off.spellingGuard = false
        #expect(ranked("bocom", off) == ["both companies"])
        // A vowel-free abbreviation is unaffected.
        #expect(ranked("gthb") == ["github"])
    }

    @Test func phrasesRankAfterTheWordBeingTyped() {
        var options = FuzzyOptions()
        // The default (100): "languages" (30) before "language and" (400 / 100).
        #expect(Self.ranked("langu", options) == ["language", "languages", "language and", "languages of"])
        options.phrasePenalty = 10
        // "language and" (400 / 10) now beats "languages" (30).
        #expect(Self.ranked("langu", options) == ["language", "language and", "languages", "languages of"])
        options.phrasePenalty = 1
        #expect(Self.ranked("langu", options).first == "language and")
    }
}

struct FuzzyConfigurationTests {
    static func load(_ provider: String) throws(ConfigurationErrors) -> EngineConfiguration {
        var registry = ProviderRegistry()
        registry.register(FuzzyProvider.self)
        let folder = (Fixture.path as NSString).deletingLastPathComponent
        return try EngineConfiguration(
            json: #"{ "version": 1, "providers": [ "# + provider + " ] }",
            baseDirectory: folder,
            registry: registry
        )
    }

    @Test func configurationBuildsAWorkingProvider() throws {
        let configuration = try Self.load(#"{ "type": "fuzzy", "dictionary": "words.tsv", "minLengthOneTypo": 3 }"#)
        let result = configuration.makeEngine().suggestions(for: "pyh")
        #expect(result.suggestions.first?.title == "python")
    }

    @Test func rankingOptionsAreRead() throws {
        let configuration = try Self.load(
            #"{ "type": "fuzzy", "dictionary": "words.tsv", "completionLengthPenalty": 1.5, "spellingGuard": false }"#)
        let provider = try #require(configuration.slots.first?.provider as? FuzzyProvider)
        #expect(provider.options.completionLengthPenalty == 1.5)
        #expect(provider.options.spellingGuard == false)
    }

    @Test func wholeWordOptionsAreRead() throws {
        let configuration = try Self.load(
            #"{ "type": "fuzzy", "dictionary": "words.tsv", "minLengthTwoTyposWholeWord": 7, "#
                + #""minLengthThreeTyposWholeWord": 0, "forgiveWrongPrefix": false }"#)
        let provider = try #require(configuration.slots.first?.provider as? FuzzyProvider)
        #expect(provider.options.minLengthTwoTyposWholeWord == 7)
        #expect(provider.options.minLengthThreeTyposWholeWord == 0)
        #expect(provider.options.forgiveWrongPrefix == false)
        #expect(!configuration.makeEngine().suggestions(for: "xython").suggestions.contains { $0.title == "python" })
    }

    @Test func prefixAndFuzzyProvidersOfOneDictionaryHoldOnePrefixIndex() throws {
        var registry = ProviderRegistry()
        registry.register(PrefixProvider.self)
        registry.register(FuzzyProvider.self)
        let folder = (Fixture.path as NSString).deletingLastPathComponent
        for order in [["prefix", "fuzzy"], ["fuzzy", "prefix"]] {
            let providers = order.map { #"{ "type": "\#($0)", "dictionary": "words.tsv" }"# }
            let configuration = try EngineConfiguration(
                json: #"{ "version": 1, "providers": [ \#(providers.joined(separator: ", ")) ] }"#,
                baseDirectory: folder,
                registry: registry,
                cache: DictionaryCache()
            )
            let prefix = try #require(configuration.slots.lazy.compactMap { $0.provider as? PrefixProvider }.first)
            let fuzzy = try #require(configuration.slots.lazy.compactMap { $0.provider as? FuzzyProvider }.first)
            // One copy of the sorted keys: both read the same storage.
            prefix.index.base.sortedKey(at: 0).withUnsafeBufferPointer { x in
                fuzzy.index.prefixIndex.sortedKey(at: 0).withUnsafeBufferPointer { y in
                    #expect(x.baseAddress == y.baseAddress, "\(order)")
                }
            }
            // The fuzzy extras stay small: a mask per key and the rank table.
            #expect(fuzzy.index.extraByteCount <= fuzzy.index.count * 8 + 64)
        }
    }

    @Test func aSavedPrefixIndexFileIsSharedToo() throws {
        var registry = ProviderRegistry()
        registry.register(PrefixProvider.self)
        registry.register(FuzzyProvider.self)
        let folder = (Fixture.path as NSString).deletingLastPathComponent
        for order in [["prefix", "fuzzy"], ["fuzzy", "prefix"]] {
            let indexPath = NSTemporaryDirectory() + "suggest-shared-\(UUID().uuidString).index"
            defer { try? FileManager.default.removeItem(atPath: indexPath) }
            let providers = order.map { type in
                type == "prefix"
                    ? #"{ "type": "prefix", "dictionary": "words.tsv", "index": "\#(indexPath)" }"#
                    : #"{ "type": "fuzzy", "dictionary": "words.tsv" }"#
            }
            let json = #"{ "version": 1, "providers": [ \#(providers.joined(separator: ", ")) ] }"#
            for round in 0..<2 {  // the first builds and saves the index file, the second loads it
                let configuration = try EngineConfiguration(
                    json: json, baseDirectory: folder, registry: registry, cache: DictionaryCache())
                let prefix = try #require(configuration.slots.lazy.compactMap { $0.provider as? PrefixProvider }.first)
                let fuzzy = try #require(configuration.slots.lazy.compactMap { $0.provider as? FuzzyProvider }.first)
                prefix.index.base.sortedKey(at: 0).withUnsafeBufferPointer { x in
                    fuzzy.index.prefixIndex.sortedKey(at: 0).withUnsafeBufferPointer { y in
                        #expect(x.baseAddress == y.baseAddress, "\(order) round \(round)")
                    }
                }
                #expect(FileManager.default.fileExists(atPath: indexPath), "\(order) round \(round)")
                #expect(configuration.makeEngine().suggestions(for: "pyhton").suggestions.first?.title == "python")
            }
        }
    }

    @Test func anIndexFileThatCannotBeWrittenNamesThePlaceInEitherOrder() {
        var registry = ProviderRegistry()
        registry.register(PrefixProvider.self)
        registry.register(FuzzyProvider.self)
        let folder = (Fixture.path as NSString).deletingLastPathComponent
        let prefix = #"{ "type": "prefix", "dictionary": "words.tsv", "index": "/nonexistent-folder/words.index" }"#
        let fuzzy = #"{ "type": "fuzzy", "dictionary": "words.tsv" }"#
        for (providers, place) in [([fuzzy, prefix], "providers[1].index"), ([prefix, fuzzy], "providers[0].index")] {
            do {
                _ = try EngineConfiguration(
                    json: #"{ "version": 1, "providers": [ \#(providers.joined(separator: ", ")) ] }"#,
                    baseDirectory: folder, registry: registry, cache: DictionaryCache())
                Issue.record("expected an error at \(place)")
            } catch {
                #expect(error.description.contains(place), "\(error.description)")
                #expect(error.description.contains("/nonexistent-folder/words.index"), "\(error.description)")
            }
        }
    }

    @Test func providersOfOneConfigurationShareTheIndex() throws {
        let cache = DictionaryCache()
        var registry = ProviderRegistry()
        registry.register(FuzzyProvider.self)
        let folder = (Fixture.path as NSString).deletingLastPathComponent
        let configuration = try EngineConfiguration(
            json: #"""
                { "version": 1, "providers": [ { "type": "fuzzy", "id": "a", "dictionary": "words.tsv" },
                                               { "type": "fuzzy", "id": "b", "dictionary": "words.tsv" } ] }
                """#,
            baseDirectory: folder,
            registry: registry,
            cache: cache
        )
        let a = try #require(configuration.slots[0].provider as? FuzzyProvider)
        let b = try #require(configuration.slots[1].provider as? FuzzyProvider)
        a.index.masks.withUnsafeBufferPointer { x in
            b.index.masks.withUnsafeBufferPointer { y in #expect(x.baseAddress == y.baseAddress) }
        }
    }

    @Test(arguments: [
        (#"{ "type": "fuzzy", "dictionary": "words.tsv", "minLengthOneTypo": 0 }"#, "providers[0].minLengthOneTypo"),
        (
            #"{ "type": "fuzzy", "dictionary": "words.tsv", "minLengthOneTypo": 6, "minLengthTwoTypos": 5 }"#,
            "providers[0].minLengthTwoTypos"
        ),
        (#"{ "type": "fuzzy", "dictionary": "words.tsv", "maxTypos": 3 }"#, "providers[0].maxTypos"),
        (
            #"{ "type": "fuzzy", "dictionary": "words.tsv", "minLengthTwoTyposWholeWord": 0 }"#,
            "providers[0].minLengthTwoTyposWholeWord"
        ),
        (
            #"{ "type": "fuzzy", "dictionary": "words.tsv", "minLengthThreeTyposWholeWord": -1 }"#,
            "providers[0].minLengthThreeTyposWholeWord"
        ),
        (
            #"{ "type": "fuzzy", "dictionary": "words.tsv", "forgiveWrongPrefix": 1 }"#,
            "providers[0].forgiveWrongPrefix"
        ),
        (#"{ "type": "fuzzy", "dictionary": "words.tsv", "wholeWordBoost": 0.5 }"#, "providers[0].wholeWordBoost"),
        (#"{ "type": "fuzzy", "dictionary": "words.tsv", "phrasePenalty": 0 }"#, "providers[0].phrasePenalty"),
        (
            #"{ "type": "fuzzy", "dictionary": "words.tsv", "completionLengthPenalty": 0.5 }"#,
            "providers[0].completionLengthPenalty"
        ),
        (#"{ "type": "fuzzy", "dictionary": "words.tsv", "spellingGuard": "yes" }"#, "providers[0].spellingGuard"),
        (#"{ "type": "fuzzy", "dictionary": "words.tsv", "maxTypo": 1 }"#, "providers[0]"),
        (#"{ "type": "fuzzy", "dictionary": "missing.tsv" }"#, "providers[0].dictionary"),
        (#"{ "type": "fuzzy" }"#, "providers[0]"),
        (#"{ "type": "fuzzy", "dictionary": "words.tsv", "maxTypos": "two" }"#, "providers[0].maxTypos"),
    ])
    func badConfigurationNamesThePlace(json: String, path: String) {
        do {
            _ = try Self.load(json)
            Issue.record("expected an error for \(json)")
        } catch {
            #expect(error.description.contains(path), "\(error.description)")
        }
    }
}

/// The Swift example of the fuzzy matching guide (SuggestFuzzy.docc/FuzzyMatching.md), kept compiling and true.
struct FuzzyReadmeExampleTests {
    @Test func readmeExample() throws {
        let path = Fixture.path
        // --- guide example ---
        let dictionary = try DictionaryLoader.load(path: path)
        let fuzzy = try FuzzyProvider(id: "fuzzy", dictionary: dictionary)
        let engine = SuggestionEngine(slots: [ProviderSlot(fuzzy)])
        var session = TypingSession()
        var last: SuggestionResult? = nil
        for text in ["p", "py", "pyh", "pyht", "pyhto"] {
            last = engine.suggestions(for: SearchQuery(text: text), session: &session)
        }
        let top = last?.suggestions.first
        // top?.title == "python", top?.tier == .oneTypo, top?.matchedRanges == [0..<5]

        var options = FuzzyOptions()
        options.minLengthOneTypo = 3  // one typo from 3 characters
        options.exactPrefixLength = 0  // the first character may be wrong too
        let lenient = try FuzzyProvider(id: "lenient", index: fuzzy.index, options: options)  // shares the index

        // With a prefix provider on the same dictionary, build one PrefixIndex and give it to both:
        let prefixIndex = PrefixIndex(dictionary: dictionary)
        let both = SuggestionEngine(slots: [
            ProviderSlot(PrefixProvider(index: prefixIndex)),
            ProviderSlot(try FuzzyProvider(index: FuzzyIndex(prefixIndex))),
        ])
        // --- end ---
        #expect(both.suggestions(for: "pyhto").suggestions.first?.title == "python")
        #expect(top?.title == "python")
        #expect(top?.tier == .oneTypo)
        #expect(top?.matchedRanges == [0..<5])
        let found = SuggestionEngine(slots: [ProviderSlot(lenient)]).suggestions(for: "xyt").suggestions
        #expect(found.contains { $0.title == "python" })
    }
}

/// The committed sample of real misspellings against the test dictionary.
struct FuzzyMisspellingSampleTests {
    static let pairs: [(String, String)] = {
        let path = Bundle.module.url(
            forResource: "misspellings-sample", withExtension: "tsv", subdirectory: "Fixtures"
        )!.path
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            if line.hasPrefix("#") { return nil }
            let parts = line.split(separator: "\t")
            return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
        }
    }()

    @Test func everySampleMisspellingFindsItsWordFirst() {
        #expect(Self.pairs.count == 10)
        let engine = SuggestionEngine(slots: [ProviderSlot(Fixture.provider())])
        for (wrong, right) in Self.pairs {
            #expect(engine.suggestions(for: wrong).suggestions.first?.title == right, "\(wrong)")
        }
    }

    @Test func everySampleMisspellingMinusItsLastLetterFindsItsWordInTheTopFive() {
        let engine = SuggestionEngine(slots: [ProviderSlot(Fixture.provider())])
        for (wrong, right) in Self.pairs {
            let titles = engine.suggestions(for: String(wrong.dropLast())).suggestions.prefix(5).map(\.title)
            #expect(titles.contains(right), "\(wrong.dropLast()): \(titles)")
        }
    }
}

/// Entries that fold to one key ("Café", "cafe", "CAFE") are one completion: the fuzzy provider offers the most
/// popular of them once, so the engine's list is not short after it merges them.
struct FuzzyVariantTests {
    static let dictionary = WeightedDictionary(entries: [
        ("cafe", 900, nil), ("Café", 800, nil), ("CAFE", 700, nil), ("café", 600, nil),
        ("cafeteria", 500, nil), ("Cafeteria", 400, nil), ("cafes", 300, nil), ("caffeine", 200, nil),
        ("cage", 150, nil), ("cake", 140, nil), ("cane", 130, nil), ("case", 120, nil), ("cave", 110, nil),
        ("safe", 100, nil), ("Safe", 99, nil), ("carfe", 50, nil), ("cofe", 40, nil), ("cafè", 30, nil),
    ])

    /// The same entries without the less popular forms of each key.
    static let withoutVariants: WeightedDictionary = {
        var seen = Set<[UInt8]>()
        var entries: [(text: String, weight: Double, scope: String?)] = []
        for i in 0..<dictionary.count where seen.insert(IndexKey.key(dictionary.text(at: i))).inserted {
            entries.append((dictionary.text(at: i), dictionary.weight(at: i), nil))
        }
        return WeightedDictionary(entries: entries)
    }()

    func engine(
        limit: Int, prefixMatches: Bool = true, dictionary: WeightedDictionary = dictionary
    ) throws -> SuggestionEngine {
        var fuzzyOptions = FuzzyOptions()
        fuzzyOptions.prefixMatches = prefixMatches
        fuzzyOptions.minLengthOneTypo = 3
        let provider = try FuzzyProvider(index: FuzzyIndex(PrefixIndex(dictionary: dictionary)), options: fuzzyOptions)
        var options = EngineOptions()
        options.limit = limit
        return SuggestionEngine(slots: [ProviderSlot(provider)], options: options)
    }

    @Test(arguments: [2, 4, 6, 8])
    func variantsChangeNothingButTheirOwnPlace(limit: Int) throws {
        // The lists are those of the dictionary without the variants: as full, and of distinct completions.
        let engine = try self.engine(limit: limit)
        let plain = try self.engine(limit: limit, dictionary: Self.withoutVariants)
        for text in ["caf", "cafe", "cafr", "cae", "cfe", "safe", "CAFÉ"] {
            let titles = engine.suggestions(for: text).suggestions.map(\.title)
            #expect(titles == plain.suggestions(for: text).suggestions.map(\.title), "\(text)")
            #expect(Set(titles.map { IndexKey.key($0) }).count == titles.count, "\(text): \(titles)")
        }
        #expect(engine.suggestions(for: "caf").suggestions.count == limit)
        // The most popular form is the one shown.
        #expect(engine.suggestions(for: "cafe").suggestions.first?.title == "cafe")
    }

    @Test func typoTiersOfferEachKeyOnce() throws {
        let engine = try engine(limit: 8, prefixMatches: false)
        let titles = engine.suggestions(for: "cafr").suggestions.map(\.title)
        #expect(Set(titles.map { IndexKey.key($0) }).count == titles.count, "\(titles)")
        #expect(titles.contains("cafe") && !titles.contains("Café") && !titles.contains("CAFE"))
    }
}

/// Text ending with a separator ("django-") has a whole last word: the keys that go on with another word are its
/// prefix matches, as with the prefix provider.
struct FuzzyWholeWordPrefixTests {
    @Test func aTrailingSeparatorOffersTheKeysThatGoOnWithAnotherWord() throws {
        let dictionary = WeightedDictionary(entries: [
            ("django", 100, nil), ("django-rest-framework", 90, nil), ("django-filter", 80, nil),
            ("djangorestframework", 70, nil), ("djang", 5, nil),
        ])
        let provider = try FuzzyProvider(index: FuzzyIndex(PrefixIndex(dictionary: dictionary)))
        for text in ["django-", "django ", "Django_"] {
            var output = ProviderOutput()
            try provider.suggest(SuggestionRequest(query: PreparedQuery(SearchQuery(text: text)), limit: 10), into: &output)
            let byTier = Dictionary(grouping: output.candidates, by: \.tier).mapValues { $0.map(\.title) }
            #expect(byTier[.exact] == ["django"], "\(text)")
            #expect(byTier[.prefix] == ["django-rest-framework", "django-filter"], "\(text)")
        }
    }
}

/// The hard ceilings of a keystroke: the typo walks' nodes and the abbreviation scan's checks.
struct FuzzyCeilingTests {
    func answer(_ provider: FuzzyProvider, _ text: String, previous: (any Sendable)? = nil) throws -> ProviderOutput {
        var output = ProviderOutput()
        let request = SuggestionRequest(query: PreparedQuery(SearchQuery(text: text)), limit: 10, previousState: previous)
        try provider.suggest(request, into: &output)
        return output
    }

    @Test func aWalkCutShortAnswersWithWhatItFoundAndSaysSo() throws {
        let free = Fixture.provider()
        let tight = Fixture.provider { $0.maxWalkNodes = 3 }
        let full = try answer(free, "pyhton")
        let cut = try answer(tight, "pyhton")
        #expect(full.notes.isEmpty)
        #expect(full.candidates.contains { $0.title == "python" })
        #expect(cut.notes.contains { $0.contains("typo search stopped at maxWalkNodes (3)") })
        // What it found is a subset of the full answer.
        #expect(Set(cut.candidates.map(\.title)).isSubset(of: Set(full.candidates.map(\.title))))
        // The next keystroke does not narrow from the cut walk's hits.
        let state = try #require(cut.state as? FuzzyState)
        #expect(state.hits == nil)
    }

    @Test func anAbbreviationScanCutShortSaysSo() throws {
        let tight = Fixture.provider { $0.maxAbbreviationChecks = 1 }
        let output = try answer(tight, "nyt")
        #expect(output.notes.contains { $0.contains("abbreviation scan stopped at maxAbbreviationChecks (1)") })
        let state = try #require(output.state as? FuzzyState)
        #expect(state.survivors == nil)
        #expect(try answer(Fixture.provider(), "nyt").notes.isEmpty)
    }

    @Test func ceilingsAndTheThresholdAreReadAndChecked() throws {
        let configuration = try FuzzyConfigurationTests.load(
            #"{ "type": "fuzzy", "dictionary": "words.tsv", "maxWalkNodes": 500, "maxAbbreviationChecks": 0, "#
                + #""typoThreshold": 2 }"#)
        let provider = try #require(configuration.slots.first?.provider as? FuzzyProvider)
        #expect(provider.options.maxWalkNodes == 500)
        #expect(provider.options.maxAbbreviationChecks == 0)
        #expect(provider.options.typoThreshold == 2)
        for (key, value, message) in [
            ("maxWalkNodes", "-1", "providers[0].maxWalkNodes: expected 0 (no ceiling) to 100000000, found -1"),
            ("maxAbbreviationChecks", "1e9", "providers[0].maxAbbreviationChecks: expected 0 (no ceiling) to 100000000"),
            ("typoThreshold", "1001", "providers[0].typoThreshold: expected 0 (the limit) to 1000, found 1001"),
        ] {
            do {
                _ = try FuzzyConfigurationTests.load(
                    #"{ "type": "fuzzy", "dictionary": "words.tsv", ""# + key + #"": "# + value + " }")
                Issue.record("\(key): no error")
            } catch {
                #expect(error.description.contains(message), "\(error)")
            }
        }
    }

    @Test func aThresholdBelowTheLimitSkipsTyposWhenThatManyKeysStartWithTheText() throws {
        // "pyt" starts python, pytest, pytorch: with a threshold of 2 no typo or abbreviation is looked for.
        let strict = Fixture.provider { $0.typoThreshold = 2; $0.minLengthOneTypo = 3 }
        let output = try answer(strict, "pyt")
        #expect(output.candidates.allSatisfy { $0.tier == .prefix || $0.tier == .exact })
    }
}

struct FuzzyMultiWordBudgetTests {
    @Test func theTypoBudgetFollowsTheLongestWord() throws {
        let dictionary = WeightedDictionary(entries: [("alpha beta", 10, nil), ("alphabetical order", 5, nil)])
        let provider = try FuzzyProvider(index: FuzzyIndex(PrefixIndex(dictionary: dictionary)))
        func titles(_ text: String) throws -> [String] {
            var output = ProviderOutput()
            try provider.suggest(SuggestionRequest(query: PreparedQuery(SearchQuery(text: text)), limit: 10), into: &output)
            return output.candidates.map(\.title)
        }
        // Two words of at most five letters: one typo in all (nine characters would have allowed two).
        #expect(try titles("alpah beta").contains("alpha beta"))
        #expect(try !titles("alpah bta").contains("alpha beta"))
        // A word of eight letters allows two.
        #expect(try titles("alphabteical ordr").contains("alphabetical order"))
    }
}
