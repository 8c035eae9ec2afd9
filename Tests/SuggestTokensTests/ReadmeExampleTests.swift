import SuggestCore
import SuggestTokens
import Testing

/// The Swift example of the tokens guide (SuggestTokens.docc/TokenExtraction.md) and the DocC landing page, compiled and checked.
struct ReadmeExampleTests {
    @Test func readmeExampleWorks() throws {
        let provider = TokenProvider(
            delimiters: [","],
            convertOnSpace: true,
            rules: [
                try TokenRule(
                    kind: "from",
                    pattern: #"\bfrom:(?<value>\S+)"#,
                    display: "From: $value",
                    systemImage: "person",
                    values: ["alice", "alex"],
                    editText: "from:$value"
                        // engine: .swift  — Swift Regex instead of PCRE2
                )
            ],
            vocabulary: TokenVocabulary(["ingredient": ["Chicken", "Beef", "Sweet Potato"]])
        )
        let engine = SuggestionEngine(providers: [provider])
        var session = TypingSession()

        let typed = engine.suggestions(for: SearchQuery(text: "spicy chicken "), session: &session)
        #expect(typed.tokens == [SearchToken(kind: "ingredient", value: "Chicken")])
        #expect(typed.remainingText == "spicy ")

        let partial = engine.suggestions(for: SearchQuery(text: "from:al", tokens: typed.tokens), session: &session)
        #expect(partial.suggestedTokens.map(\.display) == ["From: alice", "From: alex"])

        // Backspace in the empty field: the last token turns back into text.
        let edited = provider.removingLastToken(
            from: SearchQuery(text: "", tokens: [SearchToken(kind: "from", value: "alice")])
        )
        #expect(edited.text == "from:alice")
        #expect(edited.tokens.isEmpty)
    }
}
