import SuggestCore
import SuggestIndex
import SuggestPrefix
import SuggestTestSupport
import Testing

@testable import SuggestFuzzy

/// The fuzzy provider skips its typo walk and abbreviation scan when the engine says the providers before it fill
/// the list above those tiers (``SuggestionRequest/filledBefore``): the engine's answers stay the same.
struct FuzzyFilledBeforeTests {
    /// Offers nothing; placed last, it keeps the engine from telling the fuzzy provider anything.
    struct Nothing: SuggestionProvider {
        let id = "nothing"
        func suggest(_ request: SuggestionRequest, into output: inout ProviderOutput) throws {}
    }

    /// Each keystroke of typing entries letter by letter, some with a typo, through the fuzzy provider last (told)
    /// and not last (not told), beside a prefix provider on the same index.
    @Test func theAnswersAreTheSameAsWhenItIsNotTold() throws {
        let dictionary = FuzzyBesidePrefixTests.dictionary
        let index = PrefixIndex(dictionary: dictionary)
        var options = FuzzyOptions()
        options.everyWord = false
        options.offersPrefixMatches = false
        let fuzzy = try FuzzyProvider(index: FuzzyIndex(index), options: options)
        let prefix = PrefixProvider(index: index)
        let told = SuggestionEngine(slots: [ProviderSlot(prefix), ProviderSlot(fuzzy)])
        let notTold = SuggestionEngine(slots: [ProviderSlot(prefix), ProviderSlot(fuzzy), ProviderSlot(Nothing())])
        var random = SplitMix(seed: 17)
        var keystrokes = 0
        var skipped = 0
        for _ in 0..<300 {
            let target = FuzzyBesidePrefixTests.target(&random)
            var sessionA = TypingSession()
            var sessionB = TypingSession()
            var typed = ""
            for character in target {
                typed.append(character)
                let a = told.suggestions(for: SearchQuery(text: typed), session: &sessionA)
                let b = notTold.suggestions(for: SearchQuery(text: typed), session: &sessionB)
                #expect(a.suggestions.map(\.title) == b.suggestions.map(\.title), "\(typed)")
                #expect(a.suggestions.map(\.tier) == b.suggestions.map(\.tier), "\(typed)")
                keystrokes += 1
                // The fuzzy provider offered typo or abbreviation candidates that the list had no room for.
                let offeredA = a.diagnostics.providers.first { $0.provider == fuzzy.id }
                let offeredB = b.diagnostics.providers.first { $0.provider == fuzzy.id }
                if case .answered(let countA) = offeredA?.outcome, case .answered(let countB) = offeredB?.outcome,
                    countA < countB
                {
                    skipped += 1
                }
            }
        }
        #expect(keystrokes > 1_000)
        #expect(skipped > 0, "skipped on \(skipped) of \(keystrokes) keystrokes")
    }

    /// Told that the list is full before the typo tiers, it offers none of them; told nothing, it does.
    @Test func toldItOffersNoTypoOrAbbreviationCandidates() throws {
        let index = PrefixIndex(dictionary: FuzzyBesidePrefixTests.dictionary)
        let fuzzy = try FuzzyProvider(index: FuzzyIndex(index), options: FuzzyOptions())
        var found = 0
        for text in ["saetn", "lomec", "inuta", "casl", "otrem", "mucas", "ritol", "nasel"] {
            var request = SuggestionRequest(query: PreparedQuery(SearchQuery(text: text)), limit: 10)
            var plain = ProviderOutput()
            try fuzzy.suggest(request, into: &plain)
            found += plain.candidates.filter { $0.tier >= .subsequence }.count
            request.filledBefore = .wordPrefix
            var told = ProviderOutput()
            try fuzzy.suggest(request, into: &told)
            #expect(!told.candidates.contains { $0.tier >= .wordPrefix }, "\(text)")
            #expect(told.candidates.map(\.title) == plain.candidates.filter { $0.tier < .wordPrefix }.map(\.title))
        }
        #expect(found > 0)
    }
}
