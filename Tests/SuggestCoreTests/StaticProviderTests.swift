import Testing

@testable import SuggestCore

struct StaticProviderTests {
    let fruits = StaticProvider(
        items: [
            .init(title: "Apple", completion: .text("apple"), systemImage: "leaf"),
            .init(title: "Pear"),
            .init(title: "Banana"),
            .init(title: "Green Apple"),
            .init(title: "Chicken", completion: .token(SearchToken(kind: "ingredient", value: "Chicken"))),
        ],
        showWhenEmpty: 2
    )

    @Test func matchesByPrefixThenWordPrefix() {
        let result = SuggestionEngine(providers: [fruits]).suggestions(for: "app")
        #expect(result.suggestions.map(\.title) == ["Apple", "Green Apple"])
        #expect(result.suggestions.map(\.tier) == [.prefix, .wordPrefix])
        #expect(result.suggestions[0].completion == .text("apple"))
        #expect(result.suggestions[0].systemImage == "leaf")
        #expect(result.suggestions[1].matchedRanges == [6..<9])
    }

    @Test func showsTheFirstItemsOnAnEmptyField() {
        let result = SuggestionEngine(providers: [fruits]).suggestions(for: "")
        #expect(result.suggestions.map(\.title) == ["Apple", "Pear"])
        let none = StaticProvider(items: fruits.items)
        #expect(SuggestionEngine(providers: [none]).suggestions(for: "").suggestions.isEmpty)
    }

    @Test func itemsThatCompleteAlikeDoNotShortenTheList() {
        // "Café", "cafe" and "CAFE" complete alike: the engine shows one, so the empty field shows the next items.
        let items: [StaticProvider.Item] = ["Café", "cafe", "CAFE", "Tea", "tea", "Juice", "Water", "Soda"].map {
            .init(title: $0)
        }
        let provider = StaticProvider(items: items, showWhenEmpty: 4)
        let empty = SuggestionEngine(providers: [provider]).suggestions(for: "").suggestions.map(\.title)
        #expect(empty == ["Café", "Tea", "Juice", "Water"])
        var options = EngineOptions()
        options.limit = 2
        let typed = SuggestionEngine(providers: [provider], options: options).suggestions(for: "c").suggestions
        #expect(typed.map(\.title) == ["Café"])
        #expect(typed.count == 1)
    }

    @Test func offersTokensButNotOnesAlreadyChosen() {
        let engine = SuggestionEngine(providers: [fruits])
        #expect(engine.suggestions(for: "chi").suggestions.first?.completion.token?.value == "Chicken")
        let chosen = SearchQuery(text: "chi", tokens: [SearchToken(kind: "ingredient", value: "Chicken")])
        #expect(engine.suggestions(for: chosen).suggestions.isEmpty)
    }

    @Test func readsItsConfiguration() throws {
        let configuration = try EngineConfiguration(
            json: """
                {"version":1,"providers":[{"type":"static","showWhenEmpty":true,"items":[
                  {"title":"Apple","completion":"apple","subtitle":"Fruit","systemImage":"leaf","popularity":3},
                  {"title":"Chicken","token":{"kind":"ingredient","value":"Chicken"}}]}]}
                """,
            registry: .core
        )
        let provider = try #require(configuration.slots.first?.provider as? StaticProvider)
        #expect(provider.items[0] == .init(title: "Apple", completion: .text("apple"), subtitle: "Fruit", systemImage: "leaf", popularity: 3))
        #expect(provider.items[1].completion == .token(SearchToken(kind: "ingredient", value: "Chicken")))
        #expect(provider.showWhenEmpty == Int.max)
    }
}
