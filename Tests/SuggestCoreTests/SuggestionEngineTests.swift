import Synchronization
import Testing

@testable import SuggestCore

struct SuggestionEngineTests {
    @Test func ranksByTierBeforeScore() {
        let engine = SuggestionEngine(providers: [
            FixedProvider(id: "a", candidates: [
                candidate("typo", .oneTypo, 1_000_000),
                candidate("infix", .wordPrefix, 1000),
                candidate("sub", .subsequence, 10_000),
                candidate("exact", .exact, 1),
                candidate("prefix", .prefix, 10),
                candidate("two", .twoTypos, 1e9),
            ])
        ])
        let titles = engine.suggestions(for: "x").suggestions.map(\.title)
        #expect(titles == ["exact", "prefix", "infix", "sub", "typo", "two"])
    }

    @Test func insideATierWeightTimesPopularityThenShorterThenAlphabetical() {
        let engine = SuggestionEngine(slots: [
            ProviderSlot(FixedProvider(id: "light", candidates: [candidate("heavy-pop", .prefix, 100)]), weight: 1),
            ProviderSlot(FixedProvider(id: "heavy", candidates: [
                candidate("bb", .prefix, 30), candidate("aa", .prefix, 30), candidate("c", .prefix, 30),
            ]), weight: 10),
        ])
        let result = engine.suggestions(for: "x").suggestions
        #expect(result.map(\.title) == ["c", "aa", "bb", "heavy-pop"])
        #expect(result[0].score == 300)
    }

    @Test func tiebreakIsConfigurable() {
        var options = EngineOptions()
        options.tiebreak = [.alphabetical]
        let engine = SuggestionEngine(
            providers: [FixedProvider(id: "a", candidates: [candidate("bb", .prefix), candidate("c", .prefix)])],
            options: options
        )
        #expect(engine.suggestions(for: "x").suggestions.map(\.title) == ["bb", "c"])
    }

    @Test func mergesOneSuggestionPerCompletionKeepingBestFactsAndEveryProvider() {
        let engine = SuggestionEngine(providers: [
            FixedProvider(id: "fuzzy", candidates: [candidate("Python", .oneTypo, 5, typos: 1)]),
            FixedProvider(id: "prefix", candidates: [candidate("python", .prefix, 50)]),
        ])
        let suggestions = engine.suggestions(for: "pyt").suggestions
        #expect(suggestions.count == 1)
        #expect(suggestions[0].tier == .prefix)
        #expect(suggestions[0].providers == ["prefix", "fuzzy"])
        #expect(suggestions[0].typos == 0)
    }

    @Test func tokenCompletionsMergeByKindAndValue() {
        let token = SearchToken(kind: "ingredient", value: "Chicken")
        let engine = SuggestionEngine(providers: [
            FixedProvider(id: "a", candidates: [SuggestionCandidate(title: "Chicken", completion: .token(token), tier: .prefix)]),
            FixedProvider(id: "b", candidates: [
                SuggestionCandidate(title: "chicken!", completion: .token(SearchToken(kind: "ingredient", value: "chicken")), tier: .prefix),
                SuggestionCandidate(title: "Chicken", tier: .prefix),
            ]),
        ])
        let suggestions = engine.suggestions(for: "chi").suggestions
        #expect(suggestions.count == 2)
        #expect(suggestions.first { $0.completion.token != nil }?.providers == ["a", "b"])
    }

    @Test func sectionsFollowRulesThenProviderOrderWithQuotasAndLimit() {
        var options = EngineOptions()
        options.limit = 5
        options.sections = [.init(title: "Recent", quota: 2)]
        let engine = SuggestionEngine(
            slots: [
                ProviderSlot(FixedProvider(id: "words", candidates: (1...6).map { candidate("w\($0)", .prefix, Double(10 - $0)) })),
                ProviderSlot(
                    FixedProvider(id: "recent", candidates: (1...4).map { candidate("r\($0)", .prefix, Double(100 - $0)) }),
                    section: "Recent"
                ),
            ],
            options: options
        )
        let result = engine.suggestions(for: "x")
        #expect(result.sections.map(\.title) == ["Recent", "Suggestions"])
        #expect(result.sections[0].suggestions.map(\.title) == ["r1", "r2"])
        #expect(result.sections[1].suggestions.map(\.title) == ["w1", "w2", "w3"])
        #expect(result.suggestions.count == 5)
    }

    @Test func aQuotaSectionGetsItsPlacesHoweverPopularTheOthersAre() {
        var options = EngineOptions()
        options.limit = 4
        let engine = SuggestionEngine(
            slots: [
                ProviderSlot(
                    FixedProvider(id: "recent", candidates: [candidate("python tutorial", .prefix, 1)]),
                    section: "Recent"
                ),
                ProviderSlot(FixedProvider(id: "words", candidates: (1...6).map { candidate("py\($0)", .prefix, 1e6) })),
            ],
            options: options
        )
        let result = engine.suggestions(for: "py")
        #expect(result.sections.map(\.title) == ["Recent", "Suggestions"])
        #expect(result.sections[0].suggestions.map(\.title) == ["python tutorial"])
        #expect(result.sections[1].suggestions.count == 3)
    }

    @Test func anExactMatchIsNeverDroppedByAQuota() {
        var options = EngineOptions()
        options.sections = [.init(title: "Recent", quota: 1)]
        let engine = SuggestionEngine(
            slots: [
                ProviderSlot(
                    FixedProvider(id: "recent", candidates: [candidate("apple pie", .prefix, 100), candidate("apple", .exact, 1)]),
                    section: "Recent"
                )
            ],
            options: options
        )
        #expect(engine.suggestions(for: "apple").suggestions.map(\.title) == ["apple", "apple pie"])
    }

    @Test func aSuggestionBeyondItsSectionsQuotaMovesToAnotherProvidersSection() {
        // Five recent searches are dictionary words too: the Recent section shows its quota of 3, the other two
        // take their place among the suggestions instead of leaving the list short.
        var options = EngineOptions()
        options.limit = 6
        options.sections = [.init(title: "Recent", quota: 3)]
        let recents = ["so", "she", "some", "say", "should"].map { candidate($0, .prefix, 1) }
        let words = [("so", 90.0), ("she", 80), ("some", 70), ("see", 60), ("said", 50), ("say", 40), ("should", 30)]
        let engine = SuggestionEngine(
            slots: [
                ProviderSlot(FixedProvider(id: "recent", candidates: recents), section: "Recent"),
                ProviderSlot(FixedProvider(id: "words", candidates: words.map { candidate($0.0, .prefix, $0.1) })),
            ],
            options: options
        )
        let result = engine.suggestions(for: "s")
        #expect(result.sections.map(\.title) == ["Recent", "Suggestions"])
        #expect(result.sections[0].suggestions.map(\.title) == ["so", "she", "some"])
        #expect(result.sections[1].suggestions.map(\.title) == ["see", "said", "say"])
        #expect(result.sections[1].suggestions.last?.section == "Suggestions")
        #expect(result.suggestions.count == 6)
    }

    @Test func oneMergedListWhenSectionsAreOff() {
        var options = EngineOptions()
        options.groupSections = false
        let engine = SuggestionEngine(
            slots: [
                ProviderSlot(FixedProvider(id: "words", candidates: [candidate("word", .exact)])),
                ProviderSlot(FixedProvider(id: "recent", candidates: [candidate("recent", .prefix)]), section: "Recent"),
            ],
            options: options
        )
        let result = engine.suggestions(for: "word")
        #expect(result.sections.count == 1)
        #expect(result.suggestions.map(\.title) == ["word", "recent"])
    }

    @Test func aFailingProviderNeverFailsTheKeystroke() {
        let engine = SuggestionEngine(providers: [FailingProvider(), FixedProvider(id: "ok", candidates: [candidate("fine", .prefix)])])
        let result = engine.suggestions(for: "f")
        #expect(result.suggestions.map(\.title) == ["fine"])
        #expect(result.diagnostics.errors == ["failing: boom"])
        #expect(result.diagnostics.providers.count == 2)
    }

    @Test func providersKeepStateAcrossKeystrokesOfOneSession() {
        let engine = SuggestionEngine(providers: [CountingProvider()])
        var session = TypingSession()
        _ = engine.suggestions(for: "a", session: &session)
        let second = engine.suggestions(for: "ab", session: &session)
        #expect(second.suggestions.first?.title == "count 2")
        #expect(second.generation == 2)
        session.reset()
        #expect(engine.suggestions(for: "abc", session: &session).suggestions.first?.title == "count 1")
    }

    @Test func truncatesAVeryLongQueryAndSaysSo() {
        let engine = SuggestionEngine(providers: [FixedProvider(id: "a", candidates: [])])
        let result = engine.suggestions(for: String(repeating: "a", count: 1 << 20))
        #expect(result.remainingText.utf8.count == SuggestionEngine.defaultMaxQueryLength)
        #expect(result.diagnostics.notes.contains { $0.contains("truncated from 1048576 to 1024") })
    }

    @Test func anEmptyQueryIsFine() {
        let engine = SuggestionEngine(providers: [FixedProvider(id: "a", candidates: [])])
        let result = engine.suggestions(for: "")
        #expect(result.sections.isEmpty)
        #expect(result.remainingText == "")
    }

    @Test func tokenExtractionRunsFirstAndOtherProvidersSeeTheRemainingText() {
        let engine = SuggestionEngine(providers: [HashtagProvider(), EchoProvider()])
        let result = engine.suggestions(for: "spicy #dinner soup #sw")
        #expect(result.tokens == [SearchToken(kind: "tag", value: "dinner")])
        #expect(result.remainingText == "spicy soup #sw")
        #expect(result.suggestedTokens == [SearchToken(kind: "tag", value: "swift")])
        #expect(result.suggestions.first?.title == "echo: spicy soup #sw (1 tokens)")
    }

    @Test func aSuggestedTokenAlreadyInTheQueryIsNotSuggested() {
        let engine = SuggestionEngine(providers: [HashtagProvider()])
        let result = engine.suggestions(for: SearchQuery(text: "#s", tokens: [SearchToken(kind: "tag", value: "swift")]))
        #expect(result.suggestedTokens.isEmpty)
    }

    @Test func submitExtractsTokensAndTellsProviders() {
        let recorder = RecordingProvider()
        let engine = SuggestionEngine(providers: [HashtagProvider(), recorder])
        let submitted = engine.submit(SearchQuery(text: "soup #dinner"))
        #expect(submitted.tokens == [SearchToken(kind: "tag", value: "dinner")])
        #expect(recorder.submitted.withLock { $0 } == [submitted])
    }

    /// `submit` cuts its text to the maximum query length, as a keystroke does, and says so.
    @Test func aSubmittedTextIsCutToTheMaximumLikeATypedOneAndSaysSo() {
        let recorder = RecordingProvider()
        let engine = SuggestionEngine(providers: [HashtagProvider(), recorder])
        // 1 MB of two-byte scalars after a tag: cut at the maximum, on a scalar boundary.
        let text = "#dinner " + String(repeating: "é", count: 524_288)
        var notes: [String] = []
        let submitted = engine.submit(SearchQuery(text: text), notes: &notes)
        #expect(notes == ["query text truncated from 1048584 to 1024 UTF-8 bytes"])
        #expect(submitted.tokens == [SearchToken(kind: "tag", value: "dinner")])
        #expect(submitted.text == String(repeating: "é", count: 508))
        #expect(recorder.submitted.withLock { $0 } == [submitted])

        // The plain call cuts it too; a short text has no note.
        #expect(engine.submit(SearchQuery(text: text)) == submitted)
        var none: [String] = []
        engine.submit(SearchQuery(text: "soup"), notes: &none)
        #expect(none.isEmpty)
    }

    @Test func aSubmitWhoseTokenExtractionFailsSaysSo() {
        struct Failing: SuggestionProvider {
            let id = "tokens"
            func suggest(_ request: SuggestionRequest, into output: inout ProviderOutput) throws {}
            func extractTokens(from query: SearchQuery, submitting: Bool) throws -> TokenExtraction? {
                throw FailingProvider.Boom()
            }
        }
        let recorder = RecordingProvider()
        let engine = SuggestionEngine(providers: [Failing(), recorder])
        var notes: [String] = []
        let submitted = engine.submit(SearchQuery(text: "soup #x"), notes: &notes)
        #expect(notes == ["tokens: token extraction: boom"])
        #expect(submitted.text == "soup #x")
        #expect(recorder.submitted.withLock { $0 } == [submitted])
    }

    @Test func selectedSuggestionsRankHigherInsideTheirTier() {
        let recorder = RecordingProvider()
        let engine = SuggestionEngine(providers: [
            FixedProvider(id: "a", candidates: [candidate("popular", .prefix, 10), candidate("chosen", .prefix, 6)]),
            recorder,
        ])
        let before = engine.suggestions(for: "x").suggestions
        #expect(before.map(\.title) == ["popular", "chosen"])
        engine.select(before[1], for: "x")
        #expect(engine.suggestions(for: "x").suggestions.map(\.title) == ["chosen", "popular"])
        #expect(recorder.selected.withLock { $0 } == ["chosen"])
        // On an empty field the providers' own order stands.
        #expect(engine.suggestions(for: "").suggestions.map(\.title) == ["popular", "chosen"])
    }

    @Test func commonCompletionExtendsWhatWasTyped() {
        let engine = SuggestionEngine(providers: [
            FixedProvider(id: "a", candidates: [candidate("Python", .prefix, 3), candidate("pythonic", .prefix, 2)])
        ])
        #expect(engine.suggestions(for: "py").commonCompletion == "Python")
        let none = SuggestionEngine(providers: [
            FixedProvider(id: "a", candidates: [candidate("pa", .prefix), candidate("pb", .prefix)])
        ])
        #expect(none.suggestions(for: "p").commonCompletion == nil)
    }
}

/// Offers one candidate that shows what it was asked.
struct EchoProvider: SuggestionProvider {
    let id = "echo"
    func suggest(_ request: SuggestionRequest, into output: inout ProviderOutput) throws {
        output.append(SuggestionCandidate(
            title: "echo: \(request.query.text) (\(request.tokens.count) tokens)",
            tier: .unfiltered
        ))
    }
}
