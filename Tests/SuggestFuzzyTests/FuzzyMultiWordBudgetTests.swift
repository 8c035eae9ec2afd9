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
}
