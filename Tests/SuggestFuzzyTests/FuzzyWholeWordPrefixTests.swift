import Foundation

import SuggestCore
import SuggestIndex
import SuggestPrefix
import Testing

@testable import SuggestFuzzy

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

    @Test func aTrailingSeparatorAfterAMisspeltWordOffersTheKeysThatGoOnAfterItsCorrection() throws {
        let dictionary = WeightedDictionary(entries: [
            ("annotated", 10, nil), ("annotated-types", 90, nil), ("annotated-doc", 80, nil),
            ("annotatedyaml", 70, nil), ("annotate", 60, nil), ("django-filter", 50, nil),
        ])
        let provider = try FuzzyProvider(index: FuzzyIndex(PrefixIndex(dictionary: dictionary)))
        for text in ["annnotated-", "annotaetd ", "annnotated_"] {
            var output = ProviderOutput()
            try provider.suggest(SuggestionRequest(query: PreparedQuery(SearchQuery(text: text)), limit: 10), into: &output)
            let byTier = Dictionary(grouping: output.candidates, by: \.tier).mapValues { Set($0.map(\.title)) }
            // The corrected word, and the keys that go on with another word after it; not those that go on with
            // letters ("annotatedyaml"), as for a word typed right.
            #expect(byTier[.oneTypo] == ["annotated", "annotated-types", "annotated-doc"], "\(text)")
            let types = try #require(output.candidates.first { $0.title == "annotated-types" })
            #expect(types.typos == 1)
            #expect(types.matchedRanges == [0..<9], "\(text)")
        }
        // The next word narrows from that walk and answers as a cold query.
        var previous: (any Sendable)? = nil
        var typed: [SuggestionCandidate] = []
        for text in ["annnotated", "annnotated-", "annnotated-t"] {
            var output = ProviderOutput()
            try provider.suggest(
                SuggestionRequest(query: PreparedQuery(SearchQuery(text: text)), limit: 10, previousState: previous),
                into: &output)
            previous = output.state
            typed = output.candidates
        }
        var cold = ProviderOutput()
        try provider.suggest(
            SuggestionRequest(query: PreparedQuery(SearchQuery(text: "annnotated-t")), limit: 10), into: &cold)
        #expect(typed == cold.candidates)
        #expect(typed.first?.title == "annotated-types")
    }
}
