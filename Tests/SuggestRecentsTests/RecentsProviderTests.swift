import Foundation
import SuggestPattern
import Testing
import SuggestCore
@testable import SuggestRecents

struct RecentsProviderTests {
    let clock = TestClock()

    func makeProvider(_ options: RecentsProvider.Options = .init()) -> RecentsProvider {
        RecentsProvider(id: "recent", options: options, now: clock.now)
    }

    func submit(_ provider: RecentsProvider, _ texts: String...) {
        for text in texts {
            provider.record(SearchQuery(text: text))
            clock.advance(seconds: 60)
        }
    }

    // MARK: Empty field

    @Test func emptyFieldShowsTheMostRecentFirst() {
        let provider = makeProvider()
        for _ in 0..<5 { submit(provider, "often") }
        submit(provider, "once", "latest")
        let candidates = provider.candidates("")
        #expect(candidates.map(\.title) == ["latest", "once", "often"])
        #expect(candidates.allSatisfy { $0.tier == .unfiltered && $0.systemImage == "clock" })
        #expect(provider.titles("", limit: 2) == ["latest", "once"])
        #expect(provider.titles("   ") == ["latest", "once", "often"], "only whitespace is an empty field")
    }

    @Test func nothingRememberedSuggestsNothing() {
        let provider = makeProvider()
        #expect(provider.candidates("").isEmpty)
        #expect(provider.candidates("py").isEmpty)
    }

    // MARK: Typing

    @Test func typingMatchesPrefixThenWordPrefixThenContains() {
        let provider = makeProvider()
        submit(provider, "cityorkestra", "New York", "Yorkshire pudding", "paris")
        let candidates = provider.candidates("york")
        #expect(candidates.map(\.title) == ["Yorkshire pudding", "New York", "cityorkestra"])
        #expect(candidates.map(\.tier) == [.prefix, .wordPrefix, .contains])
        #expect(candidates.map(\.matchedRanges) == [[0..<4], [4..<8], [3..<7]])
        #expect(provider.candidates("new york").map(\.tier) == [.exact])
        #expect(provider.candidates("zzz").isEmpty)
        // One or two letters are inside most searches: no contains matches before three.
        #expect(provider.candidates("yo").map(\.title) == ["Yorkshire pudding", "New York"])
        #expect(provider.candidates("or").isEmpty)
        #expect(provider.candidates("ork").map(\.tier) == [.contains, .contains, .contains])
    }

    @Test func searchesThatCompleteAlikeDoNotShortenTheList() {
        // Three searches complete to "invoice" (other tokens): the engine shows one, so the provider offers one and
        // fills the rest of the limit with other searches.
        let provider = makeProvider()
        for kind in ["from", "to", "cc"] {
            provider.record(SearchQuery(text: "invoice", tokens: [SearchToken(kind: kind, value: "x")]))
            clock.advance(seconds: 1)
        }
        submit(provider, "invoices 2025", "invoice template", "inventory", "inverse", "invest", "invite", "invert")
        for limit in [3, 5, 8] {
            let titles = provider.candidates("inv", limit: limit).map(\.title)
            #expect(titles.count == limit)
            #expect(Set(titles).count == limit)
            #expect(titles.filter { $0 == "invoice" }.count <= 1)
            let empty = provider.candidates("", limit: limit).map(\.title)
            #expect(empty.count == limit && Set(empty).count == limit)
        }
    }

    @Test func matchesIgnoreCaseAndDiacritics() {
        let provider = makeProvider()
        submit(provider, "Crème brûlée")
        let candidates = provider.candidates("creme BRU")
        #expect(candidates.map(\.title) == ["Crème brûlée"])
        #expect(candidates[0].matchedRanges == [0..<6, 7..<11])
    }

    @Test func insideATierRecentsRankByFrecency() {
        let provider = makeProvider()
        submit(provider, "swift testing")
        for _ in 0..<3 { submit(provider, "swift concurrency") }
        submit(provider, "swift macros")
        let candidates = provider.candidates("swift")
        // Three uses beat one; of the single uses, the later one wins.
        #expect(candidates.map(\.title) == ["swift concurrency", "swift macros", "swift testing"])
        #expect(candidates[0].popularity > 2.9)
        #expect(candidates[1].popularity > candidates[2].popularity)
    }

    @Test func offersAtMostTheLimitBestFirst() {
        let provider = makeProvider()
        for i in 0..<20 { submit(provider, "item \(i)") }
        submit(provider, "an item")
        let candidates = provider.candidates("item", limit: 5)
        #expect(candidates.count == 5)
        #expect(candidates.allSatisfy { $0.tier == .prefix })
        #expect(candidates.first?.title == "item 19")
    }

    @Test func olderUsesCountLessAsTimeGoesBy() {
        // Half-life one day: four uses are worth 2 a day later, 0.5 three days later; a new use is worth 1.
        let provider = makeProvider(.init(halfLife: .seconds(86_400)))
        for _ in 0..<4 { provider.record("rust book") }
        clock.advance(days: 1)
        provider.record("rust analyzer")
        #expect(provider.titles("rust") == ["rust book", "rust analyzer"])
        clock.advance(days: 2)
        provider.record("rust clippy")
        #expect(provider.titles("rust") == ["rust clippy", "rust book", "rust analyzer"])
        #expect(provider.candidates("rust").map { ($0.popularity * 1000).rounded() / 1000 } == [1, 0.5, 0.25])
    }

    // MARK: Tokens

    @Test func aSearchWithTokensIsRememberedAndRestoredWhole() throws {
        let provider = makeProvider()
        let alice = SearchToken(kind: "from", value: "alice", display: "From: alice")
        let swift = SearchToken(kind: "tag", value: "swift", display: "Swift")
        provider.record(SearchQuery(text: "release notes", tokens: [alice, swift], scope: "Mail"))
        let candidate = try #require(provider.candidates("rel").first)
        #expect(candidate.title == "release notes")
        #expect(candidate.subtitle == "From: alice, Swift")
        // Choosing it puts the text and the tokens back (``SearchSession/choose(_:)``).
        #expect(candidate.completion == .query(SearchQuery(text: "release notes", tokens: [alice, swift])))
        let suggestion = Suggestion(
            title: candidate.title,
            subtitle: candidate.subtitle,
            completion: candidate.completion,
            providers: ["recent"]
        )
        let restored = try #require(provider.storedQuery(for: suggestion))
        #expect(restored.text == "release notes")
        #expect(restored.tokens.map(\.display) == ["From: alice", "Swift"])
        #expect(restored.scope == "Mail")
    }

    @Test func theSameTextWithDifferentTokensIsTwoSearches() throws {
        let provider = makeProvider()
        let alice = SearchToken(kind: "from", value: "alice", display: "From: alice")
        provider.record(SearchQuery(text: "invoice", tokens: [alice]))
        clock.advance(seconds: 1)
        provider.record(SearchQuery(text: "invoice"))
        #expect(provider.searches.count == 2)
        // Both complete to "invoice", which the engine shows once: the provider offers the better one only, so
        // that its list is not short after the merge.
        #expect(provider.candidates("inv").map(\.subtitle) == [nil])
        #expect(provider.candidates("").map(\.subtitle) == [nil])
        let plain = Suggestion(title: "invoice", completion: .text("invoice"), providers: ["recent"])
        #expect(provider.storedQuery(for: plain)?.tokens == [])
        var withAlice = plain
        withAlice.subtitle = "From: alice"
        #expect(provider.storedQuery(for: withAlice)?.tokens == [alice])
    }

    @Test func aSearchOfOneTokenCompletesAsThatToken() throws {
        let provider = makeProvider()
        let chicken = SearchToken(kind: "ingredient", value: "Chicken")
        provider.record(SearchQuery(tokens: [chicken]))
        let candidate = try #require(provider.candidates("chick").first)
        #expect(candidate.title == "Chicken")
        #expect(candidate.completion == .token(chicken))
        #expect(candidate.subtitle == nil)
    }

    @Test func withOnlyTokensInTheFieldRecentsWithThoseTokensShow() {
        let provider = makeProvider()
        let chicken = SearchToken(kind: "ingredient", value: "Chicken")
        let beef = SearchToken(kind: "ingredient", value: "Beef")
        provider.record(SearchQuery(text: "soup", tokens: [chicken]))
        clock.advance(seconds: 1)
        provider.record(SearchQuery(text: "stew", tokens: [beef]))
        clock.advance(seconds: 1)
        provider.record(SearchQuery(tokens: [chicken]))
        clock.advance(seconds: 1)
        provider.record(SearchQuery(text: "curry", tokens: [chicken, beef]))
        #expect(provider.titles("", tokens: [chicken]) == ["curry", "soup"])
        #expect(provider.titles("", tokens: [chicken, beef]) == ["curry"])
    }

    // MARK: Exclusions

    @Test func excludedSearchesAreNeverStored() throws {
        let exclusion = try RecentsExclusion(minimumLength: 3, patterns: ["^\\d{12,19}$", "password", "@.*\\."])
        let provider = makeProvider(.init(exclusion: exclusion))
        #expect(!provider.record("ab"))
        #expect(!provider.record("  a  "))
        #expect(!provider.record("4111111111111111"))
        #expect(!provider.record("my PASSWORD is"))
        #expect(!provider.record("mail me at bob@example.com"))
        #expect(!provider.record(SearchQuery(text: "notes", tokens: [SearchToken(kind: "to", value: "bob@example.com")])))
        #expect(!provider.record(""))
        #expect(provider.record("abc"))
        #expect(provider.record(SearchQuery(text: "", tokens: [SearchToken(kind: "tag", value: "x")])),
                "tokens make a search long enough")
        #expect(provider.record("4111 cats"))
        #expect(provider.searches.map(\.query.text).sorted() == ["", "4111 cats", "abc"])
    }

    @Test func anInvalidPatternIsAnErrorNamingIt() {
        #expect(throws: RecentsExclusion.PatternError.self) {
            try RecentsExclusion(patterns: ["ok", "a(b"])
        }
        do {
            _ = try RecentsExclusion(patterns: ["ok", "a(b"])
        } catch {
            #expect(error.index == 1)
            #expect(error.description.contains("a(b"))
        }
    }

    /// Exclusion patterns run on every recorded search and on every start, on Swift `Regex` where PCRE2 is absent
    /// (no match limit): patterns that could backtrack catastrophically (`^(a+)+$`) are refused, with the offset.
    @Test(arguments: [
        ("(a|aa)+$", 0, "alternation whose branches can match the same text"),
        ("^(a|a)*$", 1, "alternation whose branches can match the same text"),
        ("(.*a){20}", 0, "repeated 20 times contains an unbounded quantifier"),
        ("^(a+)+$", 1, "nested unbounded quantifier"),
    ])
    func aPatternThatCanBacktrackCatastrophicallyIsRefusedWithItsOffset(pattern: String, offset: Int, reason: String) {
        do {
            _ = try RecentsExclusion(patterns: ["password", pattern])
            Issue.record("expected \(pattern) to be refused")
        } catch {
            #expect(error.index == 1)
            #expect(error.pattern == pattern)
            #expect(error.message.contains(reason), "\(error)")
            #expect(error.message.hasSuffix("at offset \(offset)"), "\(error)")
        }
    }

    @Test func ordinaryPatternsAreStillAcceptedAndApplied() throws {
        let exclusion = try RecentsExclusion(
            patterns: [#"\bfrom:(?<value>\S+)"#, #"#(?<value>\w+)"#, #"^\d{12,19}$"#, "password"]
        )
        #expect(exclusion.excludes(SearchQuery(text: "4111111111111111")))
        #expect(exclusion.excludes(SearchQuery(text: "my PASSWORD")))
        #expect(exclusion.excludes(SearchQuery(text: "mail from:alice")))
        #expect(!exclusion.excludes(SearchQuery(text: "new york")))
    }

    @Test func withPatternsATextTooLongToMatchSafelyIsNotRemembered() throws {
        let long = String(repeating: "a", count: RecentsExclusion.maximumMatchedLength + 1)
        let exclusion = try RecentsExclusion(patterns: ["password"])
        #expect(exclusion.excludes(SearchQuery(text: long)))
        #expect(exclusion.excludes(SearchQuery(text: "x", tokens: [SearchToken(kind: "k", value: long)])))
        #expect(!exclusion.excludes(SearchQuery(text: String(long.dropFirst()))))
        // Without patterns, nothing is matched and length does not matter.
        #expect(!RecentsExclusion.none.excludes(SearchQuery(text: long)))
    }

    #if PCRE2
        /// Where the PCRE2 trait is on, exclusions run under its match limit: a polynomial pattern the check lets
        /// through (no repeated group) stops at the limit on a long text and counts as a match.
        @Test func withPCRE2APatternThatReachesTheMatchLimitCountsAsAMatch() throws {
            let exclusion = try RecentsExclusion(patterns: [".*a.*a.*a.*a.*a.*a!"])
            // The `!` is there (PCRE2 does not give up at once) but before the `a`s: no match, found only by trying.
            let text = "!" + String(repeating: "a", count: 4_000)
            #expect(exclusion.excludes(SearchQuery(text: text)), "should reach the match limit")
            #expect(!exclusion.excludes(SearchQuery(text: "bbb")))
        }
    #endif

    // MARK: Remove, clear, list, capacity

    @Test func removeClearAndList() {
        let provider = makeProvider()
        submit(provider, "alpha", "Beta", "gamma")
        #expect(provider.searches.map(\.query.text) == ["gamma", "Beta", "alpha"])
        #expect(provider.remove(" BETA "))
        #expect(!provider.remove("beta"))
        #expect(provider.searches.map(\.query.text) == ["gamma", "alpha"])
        #expect(provider.titles("b").isEmpty)
        provider.clear()
        #expect(provider.searches.isEmpty)
        #expect(provider.candidates("").isEmpty)
    }

    @Test func capacityEvictsTheLeastValuable() {
        let provider = makeProvider(.init(capacity: 3))
        for _ in 0..<3 { submit(provider, "frequent") }
        submit(provider, "b", "c", "d")
        #expect(provider.searches.count == 3)
        #expect(Set(provider.searches.map(\.query.text)) == ["frequent", "c", "d"])
    }

    @Test func aSearchStoredWithAFutureDateCountsAsMadeWhenItIsRead() {
        // Made while the device's clock was a year ahead, then the clock was put right.
        let future = clock.now().addingTimeInterval(365 * 86_400)
        let store = InMemoryRecentsStore([
            RecentSearch(query: SearchQuery(text: "from the future"), firstUsed: future, lastUsed: future),
            RecentSearch(query: SearchQuery(text: "an hour ago"), firstUsed: clock.now().addingTimeInterval(-3_600),
                         lastUsed: clock.now().addingTimeInterval(-3_600)),
        ])
        let provider = RecentsProvider(id: "recent", store: store, now: clock.now)
        #expect(provider.searches.first { $0.query.text == "from the future" }?.lastUsed == clock.now())
        clock.advance(seconds: 60)
        provider.record(SearchQuery(text: "newer"))
        clock.advance(seconds: 60)
        provider.record(SearchQuery(text: "newest"))
        #expect(provider.titles("").first == "newest")
        #expect(provider.searches.allSatisfy { $0.lastUsed <= clock.now() })
        // A later use adds up instead of vanishing into a score dated a year ahead.
        clock.advance(seconds: 60)
        provider.record(SearchQuery(text: "from the future"))
        let search = provider.searches.first { $0.query.text == "from the future" }
        #expect(search?.uses == 2)
        #expect((search?.score ?? 0) > 1.9)
        #expect(provider.titles("").first == "from the future")
    }

    // MARK: Selections

    @Test func selectionsAreRememberedOnlyWhenConfigured() {
        let off = makeProvider()
        off.didSelect(Suggestion(title: "Python", completion: .text("python"), providers: ["prefix"]), for: "pyt")
        #expect(off.searches.isEmpty)

        let on = makeProvider(.init(recordSelections: true))
        let tag = SearchToken(kind: "tag", value: "swift")
        on.didSelect(Suggestion(title: "Python", completion: .text("python"), providers: ["prefix"]),
                     for: SearchQuery(text: "pyt", tokens: [tag]))
        #expect(on.searches.map(\.query) == [SearchQuery(text: "python", tokens: [tag])])
        let chicken = SearchToken(kind: "ingredient", value: "Chicken")
        clock.advance(seconds: 1)
        on.didSelect(Suggestion(title: "Chicken", completion: .token(chicken)), for: SearchQuery(text: "chi", tokens: [tag]))
        #expect(on.searches.first?.query == SearchQuery(text: "", tokens: [tag, chicken]))
    }

    @Test func selectingARecentSearchCountsAsAUseOfTheWholeSearch() throws {
        let provider = makeProvider(.init(recordSelections: true))
        let alice = SearchToken(kind: "from", value: "alice")
        provider.record(SearchQuery(text: "report", tokens: [alice]))
        let candidate = try #require(provider.candidates("rep").first)
        clock.advance(seconds: 1)
        provider.didSelect(
            Suggestion(title: candidate.title, subtitle: candidate.subtitle, completion: candidate.completion,
                       providers: ["recent"]),
            for: "rep"
        )
        #expect(provider.searches.count == 1)
        #expect(provider.searches[0].uses == 2)
        #expect(provider.searches[0].query.tokens == [alice])
    }

    // MARK: With the engine

    @Test func aChosenSuggestionDoesNotKeepItsSearchAboveNewerOnesOnAnEmptyField() throws {
        let provider = makeProvider()
        let engine = SuggestionEngine(providers: [provider])
        // Typed "pay", chose "payout", submitted it; then typed and submitted newer searches.
        engine.select(Suggestion(title: "payout", completion: .text("payout"), providers: ["prefix"]), for: "pay")
        engine.submit(SearchQuery(text: "payout"))
        clock.advance(seconds: 60)
        engine.submit(SearchQuery(text: "kiwi"))
        clock.advance(seconds: 60)
        engine.submit(SearchQuery(text: "apple"))
        #expect(engine.suggestions(for: "").suggestions.map(\.title) == ["apple", "kiwi", "payout"])
        // While text is typed, the choice still counts.
        engine.submit(SearchQuery(text: "paywall"))
        #expect(engine.suggestions(for: "pay").suggestions.map(\.title) == ["payout", "paywall"])
    }

    @Test func theEngineShowsRecentsInTheirOwnSectionWithAQuota() throws {
        let provider = makeProvider()
        let fruits = StaticProvider(items: ["Apple", "Apricot", "Avocado", "Banana"].map { .init(title: $0) })
        var options = EngineOptions()
        options.sections = [.init(title: "Recent", quota: 3)]
        let engine = SuggestionEngine(
            slots: [
                ProviderSlot(provider, section: "Recent"),
                ProviderSlot(fruits),
            ],
            options: options
        )
        for text in ["apple pie", "apricot jam", "avocado toast", "banana bread", "Apple"] {
            let submitted = engine.submit(SearchQuery(text: text))
            #expect(submitted.text == text)
            clock.advance(seconds: 60)
        }
        let empty = engine.suggestions(for: "")
        #expect(empty.sections.map(\.title) == ["Recent"])
        #expect(empty.suggestions.map(\.title) == ["Apple", "banana bread", "avocado toast"])
        #expect(empty.suggestions.allSatisfy { $0.systemImage == "clock" })

        let typing = engine.suggestions(for: "ap")
        #expect(typing.sections.map(\.title) == ["Recent", "Suggestions"])
        let recent = try #require(typing.sections.first)
        // Inside the prefix tier the static list's popularity (1) edges out the recents' frecency (just under 1).
        #expect(recent.suggestions.map(\.title) == ["Apple", "apricot jam", "apple pie"])
        #expect(typing.sections[1].suggestions.map(\.title) == ["Apricot"], "Apple merged into the recent one")
        #expect(typing.diagnostics.notes.isEmpty)
    }

    @Test func theEngineRecordsSubmittedSearchesWithTheirTokens() throws {
        let provider = makeProvider()
        let engine = SuggestionEngine(slots: [ProviderSlot(provider, section: "Recent")])
        let tag = SearchToken(kind: "tag", value: "swift")
        engine.submit(SearchQuery(text: "  async   let ", tokens: [tag]))
        #expect(provider.searches.map(\.query) == [SearchQuery(text: "async let", tokens: [tag])])
        let suggestion = try #require(engine.suggestions(for: "asy").suggestions.first)
        #expect(provider.storedQuery(for: suggestion) == SearchQuery(text: "async let", tokens: [tag]))
    }

    // MARK: The index matches like TextMatcher

    @Test(arguments: 0..<4)
    func indexSelectsWhatTextMatcherWouldRankFirst(seed: Int) {
        var rng = SplitMix(seed: UInt64(seed))
        let pieces = ["a", "ab", "b", "ba", "new", "york", "New", "York", "é", "É", " ", "  ", "-", ".", "x"]
        func randomText(_ n: Int) -> String { (0..<n).map { _ in pieces[rng.next(pieces.count)] }.joined() }
        var ledger = RecentsLedger(halfLife: 86_400)
        let base = Date(timeIntervalSince1970: 1_795_000_000)
        for i in 0..<150 {
            var text = randomText(1 + rng.next(6))
            if text.trimmingCharacters(in: .whitespaces).isEmpty { text = "z\(i)" }
            ledger.apply(.record(RecentSearch(SearchQuery(text: text), at: base.addingTimeInterval(Double(rng.next(1000))))))
        }
        let index = RecentsIndex(ledger)
        var picked: [(tier: MatchTier, index: Int)] = []
        for _ in 0..<300 {
            let query = PreparedQuery(SearchQuery(text: randomText(1 + rng.next(3))))
            let limit = 1 + rng.next(8)
            index.select(query, limit: limit, into: &picked)
            var expected: [(MatchTier, Int)] = []
            for i in 0..<index.count {
                // Contains matches from three folded bytes on (one or two letters occur inside most words).
                let contains = query.trimmed.count >= RecentsIndex.minimumContainsLength
                if let (tier, ranges) = TextMatcher.match(query, in: index.texts[i], allowContains: contains) {
                    expected.append((tier, i))
                    #expect(index.matchedRanges(query, entry: i, tier: tier) == ranges)
                }
            }
            expected.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
            let want = expected.prefix(limit).map { "\($0.0):\($0.1)" }
            let got = picked.map { "\($0.tier):\($0.index)" }
            #expect(got == Array(want), "query \(query.text.debugDescription), limit \(limit)")
        }
    }
}

/// A small deterministic random number generator.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func next(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
