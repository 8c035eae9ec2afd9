import SuggestCore
import SuggestFuzzy
import Testing

/// At most `limit` candidates in each tier (found by the conformance kit: at limit 1, `aplpe` got two one-typo
/// candidates).
struct FuzzyLimitPerTierTests {
    static let words: [(text: String, weight: Double, scope: String?)] = [
        ("apple", 900, nil), ("Apple", 50, nil), ("apples", 300, nil), ("application", 700, nil), ("apply", 400, nil),
        ("apricot", 80, nil), ("green apple", 60, nil), ("pineapple", 120, nil), ("github", 800, nil), ("git", 600, nil),
    ]

    @Test(arguments: ["aplpe", "appel", "aple", "gthb", "apl"])
    func atMostLimitCandidatesPerTier(text: String) throws {
        let provider = try FuzzyProvider(dictionary: WeightedDictionary(entries: Self.words))
        for limit in [1, 2, 3] {
            var output = ProviderOutput()
            try provider.suggest(SuggestionRequest(query: PreparedQuery(SearchQuery(text: text)), limit: limit), into: &output)
            let counts = Dictionary(grouping: output.candidates, by: \.tier).mapValues(\.count)
            #expect(counts.values.allSatisfy { $0 <= limit }, "limit \(limit): \(counts)")
        }
    }
}
