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
}
