import Foundation
import Suggest
import Testing

@testable import SuggestPopular

/// What a store shared by several processes uses: the counted searches told as they happen, and the store's
/// version of searches taken in.
struct PopularSharingTests {
    func titles(_ provider: PopularProvider, _ text: String) -> [String] {
        var output = ProviderOutput()
        try? provider.suggest(
            SuggestionRequest(query: PreparedQuery(SearchQuery(text: text)), limit: 10), into: &output)
        return output.candidates.map(\.title)
    }

    @Test func everyCountedOrRepeatedSearchIsToldWithItsHashAndNothingElse() throws {
        let told = Locked<[PopularProvider.CountedSearch]>([])
        let clock = TestClock()
        let provider = PopularProvider(
            options: .init(minUsers: 2, exclusion: try SearchExclusion(patterns: ["^secret"])), now: clock.now,
            onCount: { search in told.withLock { $0.append(search) } })
        provider.record("  Pandas   Merge ", user: "ann")
        provider.record("pandas merge", user: "ann")
        provider.record("secret plan", user: "ann")
        provider.record("nothing found", user: "ann", hadResults: false)
        let searches = told.withLock { $0 }
        #expect(searches.map(\.text) == ["Pandas Merge", "pandas merge"])
        #expect(searches.allSatisfy { $0.userHash == provider.userHash(of: "ann") })
        #expect(searches.allSatisfy { $0.date == clock.date })
        #expect(provider.userHash(of: "ann") != provider.userHash(of: "bob"))
    }

    @Test func absorbedSearchesReplaceTheirsAndTheShownOnesAreIndexed() {
        let clock = TestClock()
        let provider = PopularProvider(options: .init(minUsers: 3), now: clock.now)
        provider.record("pandas merge", user: "ann")
        #expect(titles(provider, "pan").isEmpty)
        // Another process counted two more people.
        provider.absorb([PopularQuery(text: "pandas merge", users: 3, score: 3, lastUsed: clock.date, userHashes: [1, 2, 3])])
        #expect(titles(provider, "pan") == ["pandas merge"])
        #expect(titles(provider, "") == ["pandas merge"])
        #expect(provider.queries.map(\.users) == [3])
        // The store's version wins, down as well as up.
        provider.absorb([PopularQuery(text: "Pandas Merge", users: 2, score: 2, lastUsed: clock.date, userHashes: [1, 2])])
        #expect(titles(provider, "pan").isEmpty)
        #expect(provider.queries.map(\.text) == ["Pandas Merge"])
        // Past the capacity the least popular go.
        let small = PopularProvider(options: .init(minUsers: 1, capacity: 2), now: clock.now)
        small.absorb(
            (1...4).map {
                PopularQuery(text: "query \($0)", users: 1, score: Double($0), lastUsed: clock.date, userHashes: [1])
            })
        #expect(small.queries.count <= 2)
        #expect(small.queries.first?.text == "query 4")
    }
}
