import Foundation
import Suggest
import Testing

@testable import SuggestPopular
import SuggestTestSupport

/// A clock tests move by hand.
final class TestClock: Sendable {
    private let seconds = Locked<Double>(1_795_000_000)
    var date: Date { Date(timeIntervalSince1970: seconds.withLock { $0 }) }
    func advance(days: Double) { seconds.withLock { $0 += days * 86_400 } }
    var now: @Sendable () -> Date { { [self] in self.date } }
}

struct PopularProviderTests {
    func titles(_ provider: PopularProvider, _ text: String) -> [String] {
        var output = ProviderOutput()
        try? provider.suggest(
            SuggestionRequest(query: PreparedQuery(SearchQuery(text: text)), limit: 10), into: &output)
        return output.candidates.map(\.title)
    }

    @Test func aSearchByFewerThanMinUsersPeopleIsNeverShownToAnyoneElse() {
        let provider = PopularProvider(options: .init(minUsers: 5))
        // Four people, each many times: still not shown, typed or on the empty field, nor exported.
        for round in 0..<10 {
            for user in ["ann", "bob", "cy", "dee"] {
                provider.record("My Private Thing \(round % 1)", user: user)
            }
        }
        #expect(titles(provider, "my").isEmpty)
        #expect(titles(provider, "").isEmpty)
        #expect(provider.shownQueries.isEmpty)
        #expect(provider.dictionaryLines().lines.isEmpty)
        // Through an engine, for a fifth person.
        let engine = SuggestionEngine(providers: [provider.attributed(to: "eve")])
        #expect(engine.suggestions(for: "my").sections.flatMap(\.suggestions).isEmpty)
        // The fifth person's search makes it popular.
        engine.submit(SearchQuery(text: "my private thing 0"))
        #expect(titles(provider, "my") == ["my private thing 0"])
        #expect(provider.queries.first?.users == 5)
    }

    @Test func onePersonRepeatingASearchCountsOnce() {
        let provider = PopularProvider(options: .init(minUsers: 2))
        #expect(provider.record("swift", user: "ann") == .counted)
        for _ in 0..<50 { #expect(provider.record("Swift", user: "ann") == .repeatedByRecentUser) }
        #expect(provider.queries.first?.users == 1)
        #expect(provider.queries.first?.score == 1)
        #expect(titles(provider, "sw").isEmpty)
        provider.record("swift", user: "bob")
        #expect(titles(provider, "sw") == ["swift"])
    }

    @Test func theEnginesOwnSubmitsAreOnePerson() {
        let provider = PopularProvider(options: .init(minUsers: 2))
        let engine = SuggestionEngine(providers: [provider])
        for _ in 0..<5 { engine.submit(SearchQuery(text: "pasta")) }
        #expect(provider.queries.first?.users == 1)
        #expect(engine.suggestions(for: "pa").sections.isEmpty)
    }

    @Test func popularSearchesRankByCountAndShowOnTheEmptyField() {
        let provider = PopularProvider(options: .init(minUsers: 2))
        for (text, people) in [("python", 9), ("pytorch", 4), ("pyramid", 2), ("rust", 6), ("rare", 1)] {
            for i in 0..<people { provider.record(text, user: "user\(i)") }
        }
        #expect(titles(provider, "py") == ["python", "pytorch", "pyramid"])
        #expect(titles(provider, "") == ["python", "rust", "pytorch", "pyramid"])
        let engine = SuggestionEngine(providers: [provider])
        let empty = engine.suggestions(for: "")
        #expect(empty.sections.map(\.title) == ["Popular"])
        // While typing they blend into the default section.
        #expect(engine.suggestions(for: "ru").sections.map(\.title) == [SuggestionEngine.defaultSection])
    }

    @Test func aSearchThatOvertakesAnotherRanksAboveItWhileTyping() {
        let provider = PopularProvider(options: .init(minUsers: 1))
        for i in 0..<10 { provider.record("pasta", user: "a\(i)") }
        for i in 0..<9 { provider.record("pastry", user: "b\(i)") }
        #expect(titles(provider, "past") == ["pasta", "pastry"])
        for i in 9..<12 { provider.record("pastry", user: "b\(i)") }
        #expect(titles(provider, "past") == ["pastry", "pasta"])
        #expect(titles(provider, "") == ["pastry", "pasta"])
    }

    @Test func popularityDecaysWithTheHalfLife() {
        let clock = TestClock()
        let provider = PopularProvider(options: .init(minUsers: 1, halfLife: .seconds(86_400)), now: clock.now)
        for i in 0..<8 { provider.record("old favourite", user: "u\(i)") }
        clock.advance(days: 3)
        for i in 0..<2 { provider.record("new thing", user: "u\(i)") }
        let old = try! #require(provider.queries.first { $0.text == "old favourite" })
        // 8 searches three half-lives ago count 1; 2 new ones count 2.
        #expect(abs(provider.popularity(of: old, at: clock.date) - 1) < 1e-9)
        #expect(titles(provider, "") == ["new thing", "old favourite"])
        var output = ProviderOutput()
        try? provider.suggest(SuggestionRequest(query: PreparedQuery(SearchQuery(text: "")), limit: 5), into: &output)
        #expect(abs(output.candidates[0].popularity - 2) < 1e-9)
        #expect(abs(output.candidates[1].popularity - 1) < 1e-9)
        clock.advance(days: 1)
        #expect(abs(provider.popularity(of: old, at: clock.date) - 0.5) < 1e-9)
    }

    @Test func excludedSearchesAreNeverCounted() throws {
        let exclusion = try SearchExclusion(minimumLength: 3, patterns: [#"^\d{12,19}$"#, "password"])
        let provider = PopularProvider(options: .init(minUsers: 1, exclusion: exclusion))
        #expect(provider.record("4111111111111111", user: "a") == .excluded)
        #expect(provider.record("my Password is", user: "a") == .excluded)
        #expect(provider.record("ab", user: "a") == .excluded)
        #expect(provider.record("   ", user: "a") == .excluded)
        #expect(provider.record("abc", user: "a") == .counted)
        #expect(provider.queries.map(\.text) == ["abc"])
    }

    @Test func aStoreLoadedUnderANewExclusionForgetsWhatItExcludes() throws {
        let folder = try temporaryFolder()
        let store = PopularFileStore(path: folder + "/popular.json")
        let first = PopularProvider(store: store, options: .init(minUsers: 1))
        first.record("secret project", user: "a")
        first.record("weather", user: "a")
        let exclusion = try SearchExclusion(patterns: ["secret"])
        let second = PopularProvider(store: store, options: .init(minUsers: 1, exclusion: exclusion))
        #expect(second.queries.map(\.text) == ["weather"])
    }

    @Test func searchesWithoutResultsOrWithTokensAreDropped() {
        let provider = PopularProvider(options: .init(minUsers: 1))
        #expect(provider.record("qwzx", user: "a", hadResults: false) == .noResults)
        let tokens = SearchQuery(text: "report", tokens: [SearchToken(kind: "from", value: "alice")])
        #expect(provider.observe(submit: tokens, user: "a") == .hasTokens)
        #expect(provider.queries.isEmpty)
        #expect(provider.observe(submit: SearchQuery(text: "report"), user: "a", hadResults: true) == .counted)
    }

    @Test func capacityEvictsTheLeastPopular() {
        let clock = TestClock()
        let provider = PopularProvider(options: .init(minUsers: 1, capacity: 32), now: clock.now)
        for i in 0..<3 { provider.record("keeper", user: "u\(i)") }
        for i in 0..<100 {
            clock.advance(days: 0.01)
            provider.record("one-off \(i)", user: "u")
        }
        #expect(provider.queries.count <= 32)
        #expect(provider.queries.first?.text == "keeper")
        #expect(titles(provider, "keep") == ["keeper"])
        // The newest one-offs stay (equal counts: the older ones decayed more).
        #expect(provider.queries.contains { $0.text == "one-off 99" })
        #expect(!provider.queries.contains { $0.text == "one-off 0" })
    }

    @Test func sameSearchInOtherCaseAndSpacingIsOneSearchShownInItsNewestForm() {
        let provider = PopularProvider(options: .init(minUsers: 3))
        provider.record("new york", user: "a")
        provider.record("  New   York ", user: "b")
        provider.record("NEW YORK", user: "c")
        provider.record("New York", user: "d")
        #expect(provider.queries.count == 1)
        #expect(titles(provider, "new y") == ["New York"])
        #expect(titles(provider, "york") == ["New York"])
    }

    @Test func manyChangesKeepTheIndexRight() {
        // More changes than the index overlay takes before it is rebuilt.
        let provider = PopularProvider(options: .init(minUsers: 1))
        for i in 0..<300 { provider.record("term \(i % 150)", user: "u\(i)") }
        for i in 0..<40 { provider.record("term 7", user: "extra\(i)") }
        #expect(titles(provider, "term").first == "term 7")
        let found = titles(provider, "term 14")
        #expect(found.first == "term 14")
        #expect(found.count == 10 && found.allSatisfy { $0.hasPrefix("term 14") })
    }

    @Test func theConfigurationIsReadStrictlyWithLocatedErrors() throws {
        let folder = try temporaryFolder()
        func load(_ entry: String) throws -> EngineConfiguration {
            let path = folder + "/app.suggest.json"
            try Data(#"{"version":1,"providers":[\#(entry)]}"#.utf8).write(to: URL(fileURLWithPath: path))
            return try EngineConfiguration(contentsOf: path, registry: .builtIn)
        }
        let ok = try load(
            #"{"type":"popular","store":"popular.json","minUsers":3,"halfLifeDays":7,"exclude":{"patterns":["x+"]}}"#)
        let provider = try #require(ok.slots.first?.provider as? PopularProvider)
        #expect(provider.options.minUsers == 3)
        #expect(ok.slots.first?.section == "Popular")
        for (entry, place) in [
            (#"{"type":"popular","minUsers":0}"#, "providers[0].minUsers"),
            (#"{"type":"popular","capacity":0}"#, "providers[0].capacity"),
            (#"{"type":"popular","halfLifeDays":0}"#, "providers[0].halfLifeDays"),
            (#"{"type":"popular","exclude":{"patterns":["(a"]}}"#, "providers[0].exclude.patterns[0]"),
            (#"{"type":"popular","store":"nowhere/popular.json"}"#, "providers[0].store"),
            (#"{"type":"popular","minUser":3}"#, "minUsers"),
        ] {
            #expect {
                _ = try load(entry)
            } throws: { error in
                "\(error)".contains(place)
            }
        }
    }
}

func temporaryFolder() throws -> String {
    let folder = TestFolders.unique("suggest-popular-")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder
}
