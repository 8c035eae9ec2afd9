import Foundation
import Suggest
import SuggestTesting
import Testing

/// The kit over every built-in provider type, as a provider author would run it.
struct BuiltInProviderConformanceTests {
    static let words: [(text: String, weight: Double, scope: String?)] = [
        ("apple", 900, nil), ("Apple", 50, nil), ("apples", 300, nil), ("application", 700, nil), ("apply", 400, nil),
        ("apricot", 80, nil), ("green apple", 60, nil), ("pineapple", 120, nil), ("café", 90, nil), ("cafe", 30, nil),
        ("New York", 500, nil), ("newt", 20, nil), ("github", 800, nil), ("git", 600, nil), ("Łódź", 40, nil),
        ("naïve", 15, nil), ("résumé", 25, nil), ("e\u{301}clair", 10, nil),
    ]
    static let queries: [SearchQuery] = [
        "a", "ap", "app", "appl", "aplpe", "gthb", "new y", "york", "cafe", "lodz", "resume", "ecl", "zzzz", "APPLE",
    ]

    @Test func staticProvider() async throws {
        let provider = StaticProvider(
            items: Self.words.map { StaticProvider.Item(title: $0.text, popularity: $0.weight) },
            showWhenEmpty: 3
        )
        // By design the list offers every match (so that selection history can lift any item): no limitPerTier.
        var options = ProviderConformance.Options()
        options.checks.remove(.limitPerTier)
        try await ProviderConformance(provider, queries: Self.queries, options: options).run()
    }

    /// What the limitPerTier check says of the static list, which offers every match on purpose.
    @Test func staticProviderOffersEveryMatchOnPurpose() async {
        let provider = StaticProvider(items: Self.words.map { StaticProvider.Item(title: $0.text) })
        let options = ProviderConformance.Options(limits: [1], checks: [.limitPerTier])
        let report = await ProviderConformance(provider, queries: ["ap"], options: options).report()
        #expect(report.failures.map(\.description) == [
            #"[limitPerTier] query "ap": limit 1: 6 candidates in tier prefix (at most 1 per tier)"#
        ])
    }

    @Test func prefixProvider() async throws {
        let provider = PrefixProvider(dictionary: WeightedDictionary(entries: Self.words))
        try await ProviderConformance(provider, queries: Self.queries).run()
    }

    @Test func fuzzyProvider() async throws {
        let provider = try FuzzyProvider(dictionary: WeightedDictionary(entries: Self.words))
        try await ProviderConformance(provider, queries: Self.queries).run()
    }

    @Test func recentsProvider() async throws {
        // A fixed clock, an in-memory store: the kit submits its queries, which this provider remembers.
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let provider = RecentsProvider(now: { start })
        for word in Self.words { _ = provider.record(SearchQuery(text: word.text)) }
        _ = provider.record(SearchQuery(text: "apple pie", tokens: [SearchToken(kind: "from", value: "alice")]))
        // With a token in the field: only tokens (the searches that had it), and text with the token.
        let alice = SearchToken(kind: "from", value: "alice")
        let withToken = [SearchQuery(text: "", tokens: [alice]), SearchQuery(text: "ap", tokens: [alice])]
        try await ProviderConformance(provider, queries: Self.queries + withToken).run()
    }

    @Test func popularProvider() async throws {
        // Every word searched by enough people to be shown; the kit's own submits come from one person.
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let provider = PopularProvider(options: .init(minUsers: 2), now: { start })
        for word in Self.words {
            for user in 0..<(1 + Int(word.weight) / 100) { provider.record(word.text, user: "user\(user)") }
        }
        try await ProviderConformance(provider, queries: Self.queries).run()
    }

    @Test func tokenProvider() async throws {
        let provider = TokenProvider(
            rules: [
                try TokenRule(kind: "from", pattern: #"\bfrom:(?<value>\S*)"#, values: ["alice", "alicia", "bob"])
            ],
            vocabulary: TokenVocabulary(["ingredient": ["Chicken", "Chickpea", "Beef", "Avocado"]])
        )
        try await ProviderConformance(provider, queries: Self.queries + ["from:al", "chi", "chicken ", "beef, av"])
            .run()
    }
}
