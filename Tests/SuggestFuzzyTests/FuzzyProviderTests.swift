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
        // Only while fewer than half of the list rank above them: "recive" has "relieve" two typos away, found with
        // a limit of 30; with a limit of 10 at least five one-typo matches rank above, and with a limit of one the
        // list is full of them ("receive"), so that walk does not even run.
        #expect(Fixture.candidates("recive", limit: 30, provider: provider).candidates.contains {
            $0.title == "relieve" && $0.typos == 2
        })
        let ten = Fixture.candidates("recive", limit: 10, provider: provider).candidates
        #expect(ten.count(where: { $0.tier < .twoTypos }) >= 5)
        #expect(!ten.contains { $0.title == "relieve" })
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
