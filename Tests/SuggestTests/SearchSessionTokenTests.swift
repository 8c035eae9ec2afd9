import Suggest
import Testing

/// ``SearchSession`` with the real token and recents providers: the parts that need
/// SuggestTokens and SuggestRecents.
@MainActor
struct SearchSessionTokenTests {
    let potato = SearchToken(kind: "ingredient", value: "Sweet Potato")
    let alice = SearchToken(kind: "from", value: "alice", display: "From: alice")

    func makeTokens() throws -> TokenProvider {
        TokenProvider(
            rules: [
                try TokenRule(
                    kind: "from",
                    pattern: #"\bfrom:(?<value>\S+)"#,
                    display: "From: $value",
                    values: ["alice", "alex"],
                    editText: "from:$value"
                )
            ],
            vocabulary: TokenVocabulary(["ingredient": ["Sweet Potato", "Chicken", "Potato"]])
        )
    }

    @Test func theTokenProviderReportsTheWholePhraseASuggestedTokenReplaces() throws {
        let engine = SuggestionEngine(providers: [try makeTokens()])
        let result = engine.suggestions(for: "spicy sweet po")
        #expect(result.suggestedTokens.contains(potato))
        #expect(result.replacedRanges[potato] == 6..<14)  // "sweet po", not "po"
        let from = engine.suggestions(for: "lunch from:al")
        #expect(from.suggestedTokens.first == alice)
        #expect(from.replacedRanges[alice] == 6..<13)  // "from:al"
    }

    @Test func addingASuggestedTokenRemovesThePartlyTypedPhrase() throws {
        let session = SearchSession(engine: SuggestionEngine(providers: [try makeTokens()]))
        session.text = "spicy sweet po"
        let token = try #require(session.result.suggestedTokens.first { $0 == potato })
        session.add(token)
        #expect(session.tokens == [potato])
        #expect(session.text == "spicy ")  // not "spicy sweet"
    }

    @Test func choosingATokenSuggestionRemovesThePartlyTypedRuleMatch() throws {
        let session = SearchSession(engine: SuggestionEngine(providers: [try makeTokens()]))
        session.text = "lunch from:al"
        let suggestion = try #require(session.result.suggestions.first { $0.completion == .token(alice) })
        session.choose(suggestion)
        #expect(session.tokens == [alice])
        #expect(session.text == "lunch ")
    }

    @Test func swiftUIAppendingASuggestedTokenRemovesThePhraseToo() throws {
        let session = SearchSession(engine: SuggestionEngine(providers: [try makeTokens()]))
        session.text = "sweet po"
        #expect(session.suggestedTokens.contains(potato))
        session.tokens.append(potato)  // what `.searchable(…suggestedTokens:)` does when the person taps it
        #expect(session.tokens == [potato])
        #expect(session.text.isEmpty)
    }

    @Test func backspaceTurnsARuleTokenBackIntoItsEditText() throws {
        let session = SearchSession(engine: SuggestionEngine(providers: [try makeTokens()]))
        session.text = "from:alice "
        #expect(session.tokens == [alice])
        #expect(session.text.isEmpty)
        session.deleteBackward()
        #expect(session.tokens.isEmpty)
        #expect(session.text == "from:alice")  // stays text while edited…
        session.text += " "
        #expect(session.tokens == [alice])  // …and is a token again once completed
    }

    @Test func choosingARecentSearchRestoresItsTokens() throws {
        let recents = RecentsProvider()
        let session = SearchSession(engine: SuggestionEngine(providers: [recents, try makeTokens()]))
        session.text = "sweet potato soup"  // "sweet potato " becomes a token
        #expect(session.tokens == [potato])
        #expect(session.text == "soup")
        session.submit()
        session.clear()
        let recent = try #require(session.result.suggestions.first)
        #expect(recent.section == "Recent")
        #expect(recent.completion == .query(SearchQuery(text: "soup", tokens: [potato])))
        session.choose(recent)
        #expect(session.text == "soup")
        #expect(session.tokens == [potato])
    }

    @Test func aRecentSearchOfSeveralTokensRestoresThemAll() throws {
        let recents = RecentsProvider()
        let chicken = SearchToken(kind: "ingredient", value: "Chicken")
        let session = SearchSession(engine: SuggestionEngine(providers: [recents, try makeTokens()]))
        session.tokens = [potato, chicken]
        session.submit()
        session.clear()
        let recent = try #require(session.result.suggestions.first)
        session.choose(recent)
        #expect(session.tokens == [potato, chicken])
        #expect(session.text.isEmpty)
    }

    @Test func afterSubmitAnEmptyFieldShowsTheSearchAmongRecents() throws {
        let session = SearchSession(engine: SuggestionEngine(providers: [RecentsProvider(), try makeTokens()]))
        session.text = "roast"
        session.submit()
        #expect(session.result.suggestions.map(\.title) == ["roast"])
        session.dismiss()
        #expect(session.result.suggestions.map(\.title) == ["roast"])
    }
}
