import Foundation

import SuggestCore
import SuggestIndex
import SuggestPrefix
import Testing

@testable import SuggestFuzzy

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

    static let index = FuzzyIndex(
        WeightedDictionary(entries: [
            ("python dateutil", 10, nil), ("email validator", 10, nil), ("fal client", 10, nil), ("pyramid", 5, nil),
        ]))

    /// The keys the main walk's way of searching finds for `text`: prefix mode, `budget` typos, the first letter
    /// kept, each word to its share of the budget or not.
    static func found(_ text: String, budget: Int, byWords: Bool) -> [String] {
        let query = FuzzyMatcher.scalars(TextNormalizer.normalized(text))
        var search = TypoSearch(
            index: index, query: query, maxTypos: budget, transpositions: true, wholeWord: false, exactPrefix: 1)
        if byWords { search.capByWords { FuzzyOptions().wordTypos(forLength: $0, last: $1) } }
        search.run()
        var titles: [String] = []
        for piece in FuzzyIndex.disjointPieces(search.hits) {
            for i in Int(piece.lo)..<Int(piece.hi) { titles.append(index.dictionary.text(at: index.entry(at: i))) }
        }
        return titles
    }

    @Test func eachWordSpendsOnlyItsOwnShareOfTheBudget() {
        // Two typos in all (the last word has eight letters), one of them in "pythin", a word of six letters typed
        // whole: fine; "phyton" may take two, as a whole word of six letters may.
        #expect(Self.found("pythin dateutil", budget: 2, byWords: true) == ["python dateutil"])
        #expect(Self.found("phyton dateutil", budget: 2, byWords: true) == ["python dateutil"])
        // "emill" is two typos from "email", more than a word of five letters may have: found only without the caps.
        #expect(Self.found("emill validator", budget: 2, byWords: true).isEmpty)
        #expect(Self.found("emill validator", budget: 2, byWords: false) == ["email validator"])
        // An edit right after a separator belongs to the word after it: "fal" (three letters, no typo) is exact,
        // and "lient" may take its typo at its start.
        #expect(Self.found("fal lient", budget: 1, byWords: true) == ["fal client"])
        #expect(Self.found("fol client", budget: 1, byWords: true).isEmpty)
    }

    @Test func theCapsOfAQuery() {
        func caps(_ text: String, budget: Int) -> [Int32] {
            var caps: [Int32] = []
            TypoSearch.wordCaps(
                FuzzyMatcher.scalars(TextNormalizer.normalized(text)), maxTypos: budget,
                allowance: { FuzzyOptions().wordTypos(forLength: $0, last: $1) }
            ) { j, cap in
                #expect(j == caps.count)
                caps.append(cap)
            }
            return caps
        }
        // "fal" (whole, three letters: 0), then "lient" (being typed, five letters: 1): positions 0...3, then 4...9.
        #expect(caps("fal lient", budget: 1) == [0, 0, 0, 0, 1, 1, 1, 1, 1, 1])
        // One word: the whole budget everywhere.
        #expect(caps("pyhton", budget: 1) == [1, 1, 1, 1, 1, 1, 1])
        // Never more than the budget: "phyton" (whole, six letters: 2) with a budget of one.
        #expect(caps("phyton da", budget: 1) == [1, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    }

    @Test func aWalkNarrowsOnlyWhereNoWordsShareGrew() {
        var state = FuzzyState()
        state.scalars = FuzzyMatcher.scalars(TextNormalizer.normalized("ab cd"))
        state.typos = 2
        state.exactPrefix = 1
        state.hits = []
        let longer = FuzzyMatcher.scalars(TextNormalizer.normalized("ab cde"))
        // With an allowance where a word typed whole gets more than the one being typed, "cd" followed by another
        // word may spend more than "cd" being typed could: the old walk's hits do not hold every new path.
        let growing: (Int, Bool) -> Int = { _, last in last ? 0 : 1 }
        let fixed: (Int, Bool) -> Int = { _, _ in 1 }
        #expect(state.narrows(longer, typos: 2, exactPrefix: 1, allowance: fixed))
        let extended = FuzzyMatcher.scalars(TextNormalizer.normalized("ab cd ef"))
        #expect(!state.narrows(extended, typos: 2, exactPrefix: 1, allowance: growing))
        #expect(state.narrows(extended, typos: 2, exactPrefix: 1, allowance: fixed))
        // The budget or the text differ: never.
        #expect(!state.narrows(longer, typos: 1, exactPrefix: 1, allowance: fixed))
        #expect(!state.narrows(FuzzyMatcher.scalars(TextNormalizer.normalized("ab ce")), typos: 2, exactPrefix: 1,
                               allowance: fixed))
    }

    @Test func aTextEndingWithASeparatorNarrowsTheNextWord() {
        // After "ab cd " no word covers the last position: the walk kept the whole budget there, so "ab cd e" (whose
        // last word may spend up to the budget) narrows from it.
        var state = FuzzyState()
        state.scalars = FuzzyMatcher.scalars(TextNormalizer.normalized("ab cd "))
        #expect(state.scalars.last == 0x20)
        state.typos = 2
        state.exactPrefix = 1
        state.hits = []
        let fixed: (Int, Bool) -> Int = { _, _ in 1 }
        let next = FuzzyMatcher.scalars(TextNormalizer.normalized("ab cd e"))
        for _ in 0..<100 { #expect(state.narrows(next, typos: 2, exactPrefix: 1, allowance: fixed)) }
    }
}
