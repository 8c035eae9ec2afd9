import SuggestCore
import SuggestTokens
import Testing

struct TokenBackspaceTests {
    let provider = TokenProvider(
        rules: [
            try! TokenRule(
                kind: "from",
                pattern: #"\bfrom:(?<value>\S+)"#,
                display: "From: $value",
                editText: "from:$value"
            )
        ],
        vocabulary: TokenVocabulary(["ingredient": ["Chicken"]])
    )

    @Test func backspaceTurnsTheLastTokenBackIntoText() throws {
        let chicken = SearchToken(kind: "ingredient", value: "Chicken")
        let alice = SearchToken(kind: "from", value: "alice")
        let edited = provider.removingLastToken(from: SearchQuery(text: "", tokens: [chicken, alice]))
        #expect(edited.tokens == [chicken])
        #expect(edited.text == "from:alice")
        // Put back without a trailing space, it stays text on the next keystroke…
        let next = try provider.extractTokens(from: edited, submitting: false)
        #expect(next?.tokens ?? edited.tokens == [chicken])
        // …and becomes a token again once completed.
        let completed = try #require(
            try provider.extractTokens(from: SearchQuery(text: "from:alice ", tokens: [chicken]), submitting: false)
        )
        #expect(completed.tokens == [chicken, alice])
    }

    @Test func vocabularyAndTextTokensPutBackTheirValue() {
        let chicken = SearchToken(kind: "ingredient", value: "Chicken")
        #expect(provider.removingLastToken(from: SearchQuery(tokens: [chicken])) == SearchQuery(text: "Chicken"))
        let text = SearchToken(kind: "text", value: "crème brûlée")
        #expect(SearchQuery(tokens: [text]).removingLastToken() == SearchQuery(text: "crème brûlée"))
        #expect(provider.removingLastToken(from: SearchQuery(text: "spicy", tokens: [chicken])).text == "Chicken spicy")
        #expect(provider.removingLastToken(from: "plain") == SearchQuery(text: "plain"))
    }
}
