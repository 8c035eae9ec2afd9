import Testing

@testable import SuggestCore

/// SwiftUI's `searchable(text:tokens:)` and `ForEach` need `Identifiable` tokens and suggestions.
struct IdentityTests {
    @Test func aTokensIdentityIsItsKindAndValue() {
        let a = SearchToken(kind: "from", value: "alice", display: "From: alice")
        let b = SearchToken(kind: "from", value: "alice")
        #expect(a.id == b.id)
        #expect(a.id != SearchToken(kind: "to", value: "alice").id)
        #expect(a.id != SearchToken(kind: "from", value: "alex").id)
    }

    @Test func theSuggestionsOfAResultHaveDistinctIdentities() {
        let engine = SuggestionEngine(providers: [
            StaticProvider(items: ["Apple", "apple", "Apricot", "Green Apple"].map { .init(title: $0) }
                + [.init(title: "Apple", completion: .token(SearchToken(kind: "fruit", value: "Apple")))])
        ])
        let suggestions = engine.suggestions(for: "ap").suggestions
        #expect(suggestions.count == 4)
        #expect(Set(suggestions.map(\.id)).count == suggestions.count)
    }
}
