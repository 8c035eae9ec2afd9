import Testing

@testable import SuggestCore

/// `Suggestion.Completion.query`: a whole search (text and tokens) to put back in the field.
struct QueryCompletionTests {
    let alice = SearchToken(kind: "from", value: "alice")

    @Test func aQueryCompletionMergesAsItsTextOrItsFirstToken() {
        let withText = Suggestion.Completion.query(SearchQuery(text: "Notes", tokens: [alice]))
        #expect(MergeKey(withText) == MergeKey(.text("notes")))
        let tokensOnly = Suggestion.Completion.query(SearchQuery(tokens: [alice, SearchToken(kind: "tag", value: "x")]))
        #expect(MergeKey(tokensOnly) == MergeKey(.token(alice)))
    }

    @Test func itsTextAndDescription() {
        let completion = Suggestion.Completion.query(SearchQuery(text: "notes", tokens: [alice]))
        #expect(completion.text == "notes")
        #expect(completion.token == nil)
        #expect(completion.description == "from:alice notes")
        #expect(Suggestion.Completion.token(alice).text == nil)
        #expect(Suggestion.Completion.text("a").text == "a")
    }

    @Test func theEngineShowsOneSuggestionForAQueryAndTheSameText() {
        let engine = SuggestionEngine(providers: [
            FixedProvider(id: "recent", candidates: [
                SuggestionCandidate(
                    title: "notes",
                    completion: .query(SearchQuery(text: "notes", tokens: [alice])),
                    tier: .prefix
                )
            ]),
            FixedProvider(id: "words", candidates: [SuggestionCandidate(title: "Notes", tier: .prefix)]),
        ])
        let suggestions = engine.suggestions(for: "no").suggestions
        #expect(suggestions.count == 1)
        #expect(suggestions.first?.providers == ["recent", "words"])
        #expect(suggestions.first?.completion == .query(SearchQuery(text: "notes", tokens: [alice])))
    }
}
