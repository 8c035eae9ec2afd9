import Testing

@testable import SuggestCore

/// A provider with a dictionary and a capacity, to test configuration errors.
struct WordsProvider: ConfigurableProvider {
    struct Configuration: Decodable, Sendable {
        var dictionary: DictionarySource
        var capacity: Int

        enum CodingKeys: String, CodingKey { case dictionary, capacity }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            dictionary = try c.decode(DictionarySource.self, forKey: .dictionary)
            capacity = try c.decodeIfPresent(Int.self, forKey: .capacity) ?? 10
        }
    }

    static let typeName = "words"
    let id: String
    let dictionary: WeightedDictionary

    init(configuration: Configuration, context: ProviderContext) throws {
        id = context.id
        dictionary = try context.dictionary(configuration.dictionary)
        if configuration.capacity < 1 { throw context.error(at: "capacity", "expected 1 or more") }
    }

    func suggest(_ request: SuggestionRequest, into output: inout ProviderOutput) throws {
        for i in 0..<dictionary.count {
            if let match = request.match(dictionary.text(at: i), popularity: dictionary.weight(at: i)) {
                output.append(match)
            }
        }
    }
}

struct EngineConfigurationTests {
    var registry: ProviderRegistry {
        var registry = ProviderRegistry.core
        registry.register(WordsProvider.self)
        return registry
    }

    func errors(_ json: String) -> [String] {
        do {
            _ = try EngineConfiguration(json: json, file: "c.json", baseDirectory: Fixture.directory, registry: registry)
            return []
        } catch {
            return error.errors.map(\.description)
        }
    }

    @Test func readsOptionsAndProvidersWithPathsRelativeToTheConfigurationFolder() throws {
        let configuration = try EngineConfiguration(
            json: """
                { "version": 1, "limit": 3, "tiebreak": ["alphabetical"], "groupSections": false,
                  "sections": [ { "title": "Words", "quota": 2 } ],
                  "providers": [ { "type": "words", "id": "fruit", "dictionary": "fruits.tsv", "weight": 2,
                                   "section": "Words" } ] }
                """,
            baseDirectory: Fixture.directory,
            registry: registry
        )
        #expect(configuration.options.limit == 3)
        #expect(configuration.options.tiebreak == [.alphabetical])
        #expect(!configuration.options.groupSections)
        #expect(configuration.slots.map(\.provider.id) == ["fruit"])
        #expect(configuration.slots[0].weight == 2)
        let result = configuration.makeEngine().suggestions(for: "ap")
        #expect(result.suggestions.map(\.title) == ["Apple", "Apricot"])
    }

    @Test func malformedJSONNamesLineAndColumn() {
        #expect(errors("{\n \"version\": 1,\n \"providers\": [}\n") == ["c.json:3:16: unexpected '}', expected a value"])
    }

    @Test func anUnknownTypeSuggestsTheNearestAndListsTheKnownOnes() {
        #expect(errors(#"{"version":1,"providers":[{"type":"statc"}]}"#) == [
            #"c.json: providers[0].type: unknown provider type "statc" — did you mean "static"? (known types: static, words)"#
        ])
    }

    @Test func anUnknownKeySuggestsTheNearest() {
        #expect(errors(#"{"version":1,"providers":[{"type":"words","dictionary":"fruits.tsv","capcity":3}]}"#) == [
            #"c.json: providers[0]: unknown key "capcity" — did you mean "capacity"?"#
        ])
        #expect(errors(#"{"version":1,"limt":3,"providers":[]}"#) == [#"c.json: unknown key "limt" — did you mean "limit"?"#])
        #expect(errors(#"{"version":1,"providers":[{"type":"static","items":[{"title":"A","subtile":"x"}]}]}"#) == [
            #"c.json: providers[0].items[0]: unknown key "subtile" — did you mean "subtitle"?"#
        ])
    }

    @Test func aValueOfTheWrongTypeNamesItsPath() {
        #expect(errors(#"{"version":1,"providers":[{"type":"words","dictionary":"fruits.tsv","capacity":"ten"}]}"#) == [
            #"c.json: providers[0].capacity: expected an integer, found string "ten""#
        ])
        #expect(errors(#"{"version":1,"limit":0,"providers":[]}"#) == [
            "c.json: limit: expected an integer from 1 to 1000, found number 0"
        ])
        #expect(errors(#"{"version":1,"providers":[{"type":"static","items":[{"title":"A","showWhenEmpty":1}], "showWhenEmpty":"all"}]}"#).count == 2)
    }

    @Test func aMissingDictionaryFileNamesThePathAndTheFile() {
        let messages = errors(#"{"version":1,"providers":[{"type":"words","dictionary":"missing.tsv"}]}"#)
        #expect(messages == ["c.json: providers[0].dictionary: \(Fixture.directory)/missing.tsv: no such file"])
    }

    @Test func aBadDictionaryLineNamesFileAndLine() {
        let messages = errors(#"{"version":1,"providers":[{"type":"words","dictionary":"negative.tsv"}]}"#)
        #expect(messages == [
            "c.json: providers[0].dictionary: \(Fixture.directory)/negative.tsv:2: weight -3 is negative (weights are 0 or more)"
        ])
        #expect(errors(#"{"version":1,"providers":[{"type":"words","dictionary":{"path":"negative.tsv","lenient":true}}]}"#).isEmpty)
    }

    @Test func missingRequiredKeysAndVersionsAreErrors() {
        #expect(errors(#"{"providers":[]}"#) == [#"c.json: missing required key "version" (use 1)"#])
        #expect(errors(#"{"version":2,"providers":[]}"#) == ["c.json: version: version 2 is not supported (this build reads version 1)"])
        #expect(errors(#"{"version":1,"providers":[{"type":"words"}]}"#) == [#"c.json: providers[0]: missing required key "dictionary""#])
        #expect(errors(#"{"version":1}"#) == [#"c.json: missing required key "providers""#])
        #expect(errors(#"[1]"#) == ["c.json: expected an object at the top level, found an array"])
    }

    @Test func everyErrorIsListedNotJustTheFirst() {
        let messages = errors("""
            {"version":1,"limit":"many","providers":[
              {"type":"nope"},
              {"type":"words","dictionary":"fruits.tsv","capacity":0},
              {"type":"static","id":"x","items":[{"title":"A","completion":"a","token":{"kind":"k","value":"v"}}]}
            ]}
            """)
        #expect(messages == [
            #"c.json: limit: expected an integer from 1 to 1000, found string "many""#,
            #"c.json: providers[0].type: unknown provider type "nope" (known types: static, words)"#,
            "c.json: providers[1].capacity: expected 1 or more",
            #"c.json: providers[2].items[0]: give either "completion" or "token", not both"#,
        ])
    }

    @Test func aServerSideTypeSaysHowToGetIt() {
        let found = errors(#"{"version":1,"providers":[{"type":"remote","url":"http://x"}]}"#)
        #expect(found == [
            #"c.json: providers[0].type: unknown provider type "remote" — it is on the server side, not in this registry: with the package's Server trait, SuggestRemote's `registry.registerRemote()` (known types: static, words)"#
        ])
    }

    @Test func idsAreUniqueAndDefaultToTheType() throws {
        let configuration = try EngineConfiguration(
            json: #"{"version":1,"providers":[{"type":"static","items":[]},{"type":"static","items":[]}]}"#,
            registry: registry
        )
        #expect(configuration.slots.map(\.provider.id) == ["static", "static#1"])
        #expect(errors(#"{"version":1,"providers":[{"type":"static","id":"a","items":[]},{"type":"static","id":"a","items":[]}]}"#) == [
            #"c.json: providers[1].id: id "a" is already used by an earlier provider; ids must be unique"#
        ])
        // An entry without "id" whose default id an earlier entry wrote: the entry is named, not its missing key.
        let s = #"{"type":"static","items":[]}"#
        let t = #"{"type":"static","id":"static#2","items":[]}"#
        #expect(errors(#"{"version":1,"providers":[\#(s),\#(t),\#(s)]}"#) == [
            #"c.json: providers[2]: its default id "static#2" is already used by an earlier provider; give it an "id""#
        ])
    }

    @Test func sectionsAndTiebreakAreChecked() {
        #expect(errors(#"{"version":1,"sections":[{"title":"R","qouta":2}],"tiebreak":["shortest"],"providers":[]}"#) == [
            #"c.json: tiebreak[0]: expected one of shorter, alphabetical, provider, found string "shortest" — did you mean "shorter"?"#,
            #"c.json: sections[0]: unknown key "qouta" — did you mean "quota"?"#,
        ])
        // A tiebreak named twice, and two rules for one section.
        #expect(errors(#"{"version":1,"sections":[{"title":"R","quota":2},{"title":"S"},{"title":"R","quota":3}],"tiebreak":["shorter","nope","alphabetical","shorter"],"providers":[]}"#) == [
            #"c.json: tiebreak[1]: expected one of shorter, alphabetical, provider, found string "nope""#,
            #"c.json: tiebreak[3]: "shorter" is already tiebreak[0]"#,
            #"c.json: sections[2].title: "R" is already the title of sections[0]"#,
        ])
        // A rule skipped as an error does not shift the place of a misspelt title after it.
        let one = #""providers":[{"type":"static","items":[]}]"#
        #expect(errors(#"{"version":1,"sections":[{"title":"Other"},{"title":"Other"},{"title":"Sugestions"}],\#(one)}"#) == [
            #"c.json: sections[1].title: "Other" is already the title of sections[0]"#,
            #"c.json: sections[2].title: no provider's section is "Sugestions" — did you mean "Suggestions"?"#,
        ])
        // A rule whose title is nearly a provider's section is a misspelling; one far from every section may be for
        // candidates that name their own section.
        let items = #""providers":[{"type":"static","items":[]},{"type":"static","section":"Places","items":[]}]"#
        #expect(errors(#"{"version":1,"sections":[{"title":"Sugestions","quota":2}],\#(items)}"#) == [
            #"c.json: sections[0].title: no provider's section is "Sugestions" — did you mean "Suggestions"?"#
        ])
        #expect(errors(#"{"version":1,"sections":[{"title":"places"},{"title":"People","quota":2}],\#(items)}"#) == [
            #"c.json: sections[0].title: no provider's section is "places" — did you mean "Places"?"#
        ])
        #expect(errors(#"{"version":1,"sections":[{"title":"People","quota":2},{"title":"Suggestions"}],\#(items)}"#).isEmpty)
    }

    @Test func aMissingConfigurationFileSaysSo() {
        #expect(throws: ConfigurationErrors([ConfigurationError(file: "/nonexistent/c.json", message: "no such file")])) {
            try EngineConfiguration(contentsOf: "/nonexistent/c.json", registry: registry)
        }
    }
}
