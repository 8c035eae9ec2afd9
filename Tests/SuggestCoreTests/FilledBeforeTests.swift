import Synchronization
import Testing

@testable import SuggestCore

/// ``SuggestionRequest/filledBefore``: what the engine tells its last provider about the tiers the providers before
/// it already fill.
struct FilledBeforeTests {
    /// Records the `filledBefore` of every request it gets, and offers `offered`.
    final class Listener: SuggestionProvider {
        let id = "listener"
        let offered: [SuggestionCandidate]
        let heard = Mutex<[MatchTier?]>([])
        init(offering offered: [SuggestionCandidate] = []) { self.offered = offered }
        func suggest(_ request: SuggestionRequest, into output: inout ProviderOutput) throws {
            heard.withLock { $0.append(request.filledBefore) }
            output.candidates += offered
        }
    }

    func heard(
        _ earlier: [ProviderSlot], listenerSection: String = "Suggestions", after: [ProviderSlot] = [],
        limit: Int = 4, sections: [EngineOptions.SectionRule]? = nil, text: String = "ab"
    ) -> MatchTier?? {
        let listener = Listener()
        var options = EngineOptions()
        options.limit = limit
        if let sections { options.sections = sections }
        let engine = SuggestionEngine(
            slots: earlier + [ProviderSlot(listener, section: listenerSection)] + after, options: options)
        _ = engine.suggestions(for: text)
        return listener.heard.withLock { $0.first }
    }

    func fixed(_ id: String, _ candidates: [SuggestionCandidate], section: String = "Suggestions") -> ProviderSlot {
        ProviderSlot(FixedProvider(id: id, candidates: candidates), section: section)
    }

    @Test func theFirstTierAfterLimitDifferentCompletions() {
        let four = fixed("a", ["abc", "abd", "abe", "abf"].map { candidate($0, .prefix) })
        #expect(heard([four]) == .some(.wordPrefix))
        let mixed = fixed("a", [candidate("ab", .exact), candidate("abc", .prefix), candidate("x ab", .wordPrefix),
                                candidate("y ab", .wordPrefix), candidate("z ab", .wordPrefix)])
        #expect(heard([mixed]) == .some(.wordsInOrder))
        // Three are not enough for a limit of four.
        #expect(heard([fixed("a", ["abc", "abd", "abe"].map { candidate($0, .prefix) })]) == .some(nil))
    }

    /// Completions that merge into one entry count once: the same text from two providers, or two texts that fold
    /// to the same key.
    @Test func aCompletionOfferedTwiceCountsOnce() {
        let a = fixed("a", ["abc", "abd"].map { candidate($0, .prefix) })
        let b = fixed("b", ["ABC", "abd", "abé"].map { candidate($0, .prefix) })
        #expect(heard([a, b]) == .some(nil))
        let c = fixed("c", [candidate("abf", .oneTypo)])
        #expect(heard([a, b, c]) == .some(.twoTypos))
    }

    /// What may not take a place before the last provider's candidates is not counted: a section with a quota,
    /// synonym matches, candidates that name their own section.
    @Test func onlyWhatRanksBeforeInASectionWithoutAQuotaCounts() {
        let quota = [EngineOptions.SectionRule(title: "Recent", quota: 2)]
        let recent = fixed("r", ["abc", "abd", "abe", "abf"].map { candidate($0, .prefix) }, section: "Recent")
        #expect(heard([recent], sections: quota) == .some(nil))
        var own = ["abc", "abd", "abe", "abf"].map { candidate($0, .prefix) }
        own[0].section = "Elsewhere"
        #expect(heard([fixed("a", own)]) == .some(nil))
        // The listener's own section has a quota: its candidates take places first.
        let four = fixed("a", ["abc", "abd", "abe", "abf"].map { candidate($0, .prefix) })
        #expect(heard([four], listenerSection: "Recent", sections: quota) == .some(nil))
    }

    /// Only the last provider is told, and never on an empty field.
    @Test func onlyTheLastProviderOnTypedText() {
        let four = fixed("a", ["abc", "abd", "abe", "abf"].map { candidate($0, .prefix) })
        #expect(heard([four], after: [fixed("z", [])]) == .some(nil))
        #expect(heard([four], text: "") == .some(nil))
    }

    /// An exact match of a provider whose exact matches must earn their place merges as a prefix match.
    @Test func aBoostedExactMatchCountsAsAPrefixMatch() {
        let exactly = [candidate("ab", .exact), candidate("abc", .prefix), candidate("abd", .prefix)]
        var slot = fixed("a", exactly)
        #expect(heard([slot], limit: 1) == .some(.prefix))
        slot.exactMatch = .boost(2)
        #expect(heard([slot], limit: 1) == .some(.wordPrefix))
    }
}
