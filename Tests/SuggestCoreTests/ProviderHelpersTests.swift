import SuggestCore
import Testing

struct MatchAnyWordTests {
    func request(_ text: String, limit: Int = 8) -> SuggestionRequest {
        SuggestionRequest(query: PreparedQuery(SearchQuery(text: text)), limit: limit)
    }

    @Test func anyWordOfASentenceFindsAName() throws {
        let match = try #require(request("lunch with ali").matchAnyWord("Alice Martin"))
        #expect(match.tier == .wordPrefix)
        #expect(match.matchedRanges == [0..<3])
        #expect(request("lunch with ali").match("Alice Martin") == nil)  // the standard rule needs every word in order
    }

    @Test func everyMatchedWordIsARange() throws {
        let match = try #require(request("martin and ali").matchAnyWord("Alice Martin"))
        #expect(match.matchedRanges == [0..<3, 6..<12])
    }

    @Test func completeWordsMustBeWholeWordsTheLastMayBeAPrefix() {
        #expect(request("ali with").matchAnyWord("Alice Martin") == nil)  // "ali" is complete: not a whole word
        #expect(request("with ali ").matchAnyWord("Alice Martin") == nil)  // ended by a space: complete too
        #expect(request("with alice ").matchAnyWord("Alice Martin")?.matchedRanges == [0..<5])
        #expect(request("lunch mar").matchAnyWord("Alice Martin")?.matchedRanges == [6..<9])
        #expect(request("lunch lice").matchAnyWord("Alice Martin") == nil)  // not at a word start
    }

    @Test func aWholeTextMatchKeepsItsStandardTier() {
        #expect(request("alice martin").matchAnyWord("Alice Martin")?.tier == .exact)
        #expect(request("alice ma").matchAnyWord("Alice Martin")?.tier == .prefix)
        #expect(request("mar").matchAnyWord("Alice Martin")?.tier == .wordPrefix)
        #expect(request("").matchAnyWord("Alice Martin") == nil)
        #expect(request("   ").matchAnyWord("Alice Martin") == nil)
    }

    @Test func foldedLikeTheStandardMatch() {
        #expect(request("dinner with zoe").matchAnyWord("Zoë Ångström")?.matchedRanges == [0..<4])
        #expect(request("call angs").matchAnyWord("Zoë Ångström")?.matchedRanges == [5..<10])
    }

    @Test func aSecondFieldMatchesWithoutRanges() throws {
        let byEmail = try #require(request("bob@corp").match("Bob Stone", alsoMatching: ["bob@corp.example"]))
        #expect(byEmail.tier == .prefix)
        #expect(byEmail.matchedRanges == [])
        #expect(byEmail.title == "Bob Stone")
        let byName = try #require(request("sto").match("Bob Stone", alsoMatching: ["bob@corp.example"]))
        #expect(byName.tier == .wordPrefix)
        #expect(byName.matchedRanges == [4..<7])
        #expect(request("alice").match("Bob Stone", alsoMatching: ["bob@corp.example"]) == nil)
        let anyWord = try #require(
            request("mail to bob@").matchAnyWord("Bob Stone", alsoMatching: ["bob@corp.example"]))
        #expect(anyWord.matchedRanges == [0..<3])  // "bob" is a whole word of the name too
        let onlyEmail = try #require(
            request("mail to corp").matchAnyWord("Bob Stone", alsoMatching: ["bob@corp.example"]))
        #expect(onlyEmail.tier == .wordPrefix)
        #expect(onlyEmail.matchedRanges == [])
    }
}

struct KeepBestTests {
    func candidate(_ title: String, _ tier: MatchTier, _ popularity: Double, typos: Int = 0) -> SuggestionCandidate {
        SuggestionCandidate(title: title, tier: tier, typos: typos, popularity: popularity)
    }

    @Test func keepsTheMostPopularOfEachTierInTheirOrder() {
        var output = ProviderOutput(candidates: [
            candidate("a", .prefix, 1), candidate("b", .prefix, 5), candidate("c", .wordPrefix, 2),
            candidate("d", .prefix, 3), candidate("e", .wordPrefix, 1), candidate("f", .wordPrefix, 9),
        ])
        output.keepBest(perTier: 2)
        #expect(output.candidates.map(\.title) == ["b", "c", "d", "f"])
    }

    @Test func fewerTyposFirstThenPopularityAndTiesKeepTheEarlier() {
        var output = ProviderOutput(candidates: [
            candidate("a", .twoTypos, 100, typos: 3), candidate("b", .twoTypos, 1, typos: 2),
            candidate("c", .twoTypos, 1, typos: 2), candidate("d", .twoTypos, 1, typos: 2),
        ])
        output.keepBest(perTier: 2)
        #expect(output.candidates.map(\.title) == ["b", "c"])
    }

    @Test func withinTheLimitNothingChanges() {
        let all = [candidate("a", .prefix, 1), candidate("b", .prefix, 5), candidate("c", .exact, 2)]
        var output = ProviderOutput(candidates: all)
        output.keepBest(perTier: 2)
        #expect(output.candidates == all)
    }
}

/// `ProviderRegistry.register(_:configuration:make:)` and `register(_:make:)`: providers built from app state.
struct RegistryClosureTests {
    /// App state the provider reads on every keystroke.
    final class Names: Sendable {
        let names: [String]
        init(_ names: [String]) { self.names = names }
    }

    struct NamesProvider: SuggestionProvider {
        let id: String
        let names: Names
        var prefix = ""
        func suggest(_ request: SuggestionRequest, into output: inout ProviderOutput) throws {
            for name in names.names {
                if let match = request.match(prefix + name) { output.append(match) }
            }
        }
    }

    struct Keys: Decodable, Sendable {
        var prefix: String?
    }

    @Test func aClosureWithoutKeysBuildsTheProviderFromAppState() throws {
        let names = Names(["Alice", "Bob"])
        var registry = ProviderRegistry.core
        registry.register("names", defaultSection: "People") { context in NamesProvider(id: context.id, names: names) }
        let configuration = try EngineConfiguration(
            json: #"{ "version": 1, "providers": [ { "type": "names", "id": "people" } ] }"#,
            registry: registry
        )
        #expect(configuration.slots.map(\.provider.id) == ["people"])
        let result = configuration.makeEngine().suggestions(for: "al")
        #expect(result.suggestions.map(\.title) == ["Alice"])
        #expect(result.suggestions.map(\.section) == ["People"])
    }

    @Test func aClosureWithKeysGetsThemDecoded() throws {
        let names = Names(["Alice", "Bob"])
        var registry = ProviderRegistry.core
        registry.register("names", configuration: Keys.self) { keys, context in
            NamesProvider(id: context.id, names: names, prefix: keys.prefix ?? "")
        }
        let engine = try EngineConfiguration(
            json: #"{ "version": 1, "providers": [ { "type": "names", "prefix": "Dr " } ] }"#,
            registry: registry
        ).makeEngine()
        #expect(engine.suggestions(for: "dr b").suggestions.map(\.title) == ["Dr Bob"])
    }

    @Test func unknownKeysAreErrorsInBothForms() {
        var registry = ProviderRegistry.core
        registry.register("plain") { context in NamesProvider(id: context.id, names: Names([])) }
        registry.register("keyed", configuration: Keys.self) { _, context in
            NamesProvider(id: context.id, names: Names([]))
        }
        let error = #expect(throws: ConfigurationErrors.self) {
            try EngineConfiguration(
                json:
                    #"{ "version": 1, "providers": [ { "type": "plain", "prefix": "x" }, { "type": "keyed", "prefx": "x" } ] }"#,
                registry: registry
            )
        }
        #expect(
            error?.errors.map(\.description) == [
                #"providers[0]: unknown key "prefix" (known keys: exactMatch, id, section, type, weight)"#,
                #"providers[1]: unknown key "prefx" — did you mean "prefix"?"#,
            ])
    }
}
