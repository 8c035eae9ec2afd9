import SuggestCore
import Testing

struct KeepBestTests {
    func candidate(_ title: String, _ tier: MatchTier, _ popularity: Double, typos: Int = 0) -> SuggestionCandidate {
        SuggestionCandidate(title: title, tier: tier, typos: typos, popularity: popularity)
    }

    @Test func keepsTheMostPopularOfEachTierInTheirOrder() {
        var output = ProviderOutput(candidates: [
            candidate("a", .prefix, 1), candidate("b", .prefix, 5), candidate("c", .wordPrefix, 2),
            candidate("d", .prefix, 3), candidate("e", .wordPrefix, 1), candidate("f", .wordPrefix, 9),
        ])
        output.keepBest(perTier: 2)
        #expect(output.candidates.map(\.title) == ["b", "c", "d", "f"])
    }

    @Test func fewerTyposFirstThenPopularityAndTiesKeepTheEarlier() {
        var output = ProviderOutput(candidates: [
            candidate("a", .twoTypos, 100, typos: 3), candidate("b", .twoTypos, 1, typos: 2),
            candidate("c", .twoTypos, 1, typos: 2), candidate("d", .twoTypos, 1, typos: 2),
        ])
        output.keepBest(perTier: 2)
        #expect(output.candidates.map(\.title) == ["b", "c"])
    }

    @Test func withinTheLimitNothingChanges() {
        let all = [candidate("a", .prefix, 1), candidate("b", .prefix, 5), candidate("c", .exact, 2)]
        var output = ProviderOutput(candidates: all)
        output.keepBest(perTier: 2)
        #expect(output.candidates == all)
    }
}
