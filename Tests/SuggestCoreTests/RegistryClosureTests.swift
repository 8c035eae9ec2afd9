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

    /// A required key first, then optional ones, as a provider's configuration often reads them.
    struct RequiredFirst: Decodable, Sendable {
        var source: String
        var index: String?
        var infix: Bool?
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

    /// When a required key is missing, the keys after it were never read: they are not called unknown (their
    /// object is reported again, whole, once the key is there), but a misspelling of the missing key is.
    @Test func aMissingKeyDoesNotMakeTheKeysAfterItUnknown() {
        var registry = ProviderRegistry.core
        registry.register("keyed", configuration: RequiredFirst.self) { _, context in
            NamesProvider(id: context.id, names: Names([]))
        }
        func errors(_ provider: String) -> [String] {
            do {
                _ = try EngineConfiguration(json: #"{ "version": 1, "providers": [ "# + provider + " ] }", registry: registry)
                return []
            } catch {
                return error.errors.map(\.description)
            }
        }
        #expect(
            errors(#"{ "type": "keyed", "index": "x", "infix": true }"#) == [
                #"providers[0]: missing required key "source""#
            ])
        #expect(
            errors(#"{ "type": "keyed", "sourse": "x", "infix": true }"#) == [
                #"providers[0]: missing required key "source""#,
                #"providers[0]: unknown key "sourse" — did you mean "source"?"#,
            ])
        #expect(
            errors(#"{ "type": "keyed", "source": "x", "infx": true }"#) == [
                #"providers[0]: unknown key "infx" — did you mean "infix"?"#
            ])
    }

    /// Relative paths resolve against the configuration's folder once: "./words.tsv" in "." is "./words.tsv".
    @Test(arguments: [
        (".", "./words.tsv", "./words.tsv"), (".", "words.tsv", "./words.tsv"), ("/srv/app", "./././w.tsv", "/srv/app/w.tsv"),
        ("/srv/app/", "data/w.tsv", "/srv/app/data/w.tsv"), ("/srv/app", "/abs/w.tsv", "/abs/w.tsv"),
        ("/srv/app", "../w.tsv", "/srv/app/../w.tsv"),
    ])
    func relativePathsResolveOnce(base: String, path: String, resolved: String) {
        #expect(ProviderContext(id: "p", baseDirectory: base).resolve(path) == resolved)
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
