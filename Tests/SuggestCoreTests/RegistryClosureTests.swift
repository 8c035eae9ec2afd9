import SuggestCore
import Testing

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
