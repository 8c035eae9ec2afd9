import Suggest
import SuggestTesting
import Testing

// The Swift examples of the README and of SuggestCore's guides, compiled and run here so that they stay true.

// SuggestCore.docc/WritingAProvider.md
struct ColorProvider: ConfigurableProvider {
    struct Configuration: Decodable, Sendable {
        var names: [String]
    }

    static let typeName = "colors"
    let id: String
    let names: [String]

    init(configuration: Configuration, context: ProviderContext) throws {
        id = context.id
        names = configuration.names
    }

    func suggest(_ request: SuggestionRequest, into output: inout ProviderOutput) throws {
        for name in names {
            if let match = request.match(name, systemImage: "paintpalette") { output.append(match) }
        }
        output.keepBest(perTier: request.limit)
    }
}

struct ReadmeExampleTests {
    @Test func embeddingInSwift() throws {
        // README "Embed it in Swift" and SuggestCore.docc/EmbeddingInSwift.md
        let fruits = StaticProvider(items: [
            .init(title: "Apple", systemImage: "leaf"),
            .init(title: "Apricot"),
            .init(title: "Green Apple"),
            .init(title: "Chicken", completion: .token(SearchToken(kind: "ingredient", value: "Chicken"))),
        ])
        let engine = SuggestionEngine(providers: [fruits])
        var session = TypingSession()  // one per search field
        for text in ["a", "ap", "app"] {
            let result = engine.suggestions(for: SearchQuery(text: text), session: &session)
            for suggestion in result.suggestions {
                print(suggestion.title, suggestion.tier, suggestion.matchedStringRanges)
            }
        }
        let result = engine.suggestions(for: SearchQuery(text: "app"), session: &session)
        #expect(result.suggestions.map(\.title) == ["Apple", "Green Apple"])
        engine.submit(SearchQuery(text: "apple"))  // recent searches learn from this
    }

    @MainActor
    @Test func embeddingASearchSession() throws {
        // SuggestCore.docc/EmbeddingInSwift.md, the SearchSession example (with the fruits of the example above)
        let fruits = StaticProvider(items: [
            .init(title: "Apple", systemImage: "leaf"),
            .init(title: "Apricot"),
            .init(title: "Green Apple"),
            .init(title: "Chicken", completion: .token(SearchToken(kind: "ingredient", value: "Chicken"))),
        ])
        let recents = RecentsProvider()
        let engine = SuggestionEngine(providers: [recents, fruits])
        let session = SearchSession(engine: engine)  // one per search field, on the main actor
        session.text = "chi"  // a keystroke: `session.result` answers it
        session.choose(session.result.suggestions[0])  // the token Chicken: added, "chi" removed
        #expect(session.tokens.map(\.value) == ["Chicken"] && session.text.isEmpty)
        session.text = "ap"
        session.choose(session.result.suggestions[0])  // "Apple": the text completion replaces the text
        #expect(session.text == "Apple")
        session.submit()  // recorded; `result` answers the field as it now is
        #expect(recents.searches.first?.query == SearchQuery(text: "Apple", tokens: session.tokens))
        #expect(session.result.suggestions.first?.section == "Recent")
        session.dismiss()  // Cancel: the field empties, `isSearching` is false
        #expect(session.text.isEmpty && session.tokens.isEmpty && !session.isSearching)
    }

    @Test func configuringWithJSONAndACustomProvider() throws {
        var registry = ProviderRegistry.builtIn
        registry.register(ColorProvider.self)
        let configuration = try EngineConfiguration(
            json: #"{ "version": 1, "providers": [ { "type": "colors", "names": ["Red", "Green", "Royal Blue"] } ] }"#,
            registry: registry
        )
        let engine = configuration.makeEngine()
        #expect(engine.suggestions(for: "blu").suggestions.map(\.title) == ["Royal Blue"])
    }

    @Test func theArticlesProviderPassesTheConformanceKit() async throws {
        // SuggestCore.docc/WritingAProvider.md: the example keeps at most `limit` of each tier.
        let colors = try ColorProvider(
            configuration: .init(names: ["Red", "Royal Blue", "Rose", "Green", "Blue"]),
            context: ProviderContext(id: "colors", baseDirectory: "."))
        try await ProviderConformance(colors, queries: ["r", "re", "bl", "", "zz"]).run()
    }

    @Test func theBuiltInRegistryListsEveryShippedProvider() {
        #expect(ProviderRegistry.builtIn.typeNames.contains("static"))
    }
}
