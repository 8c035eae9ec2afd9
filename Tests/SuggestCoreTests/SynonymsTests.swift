import Testing

@testable import SuggestCore

struct SynonymsTests {
    let clothes = StaticProvider(
        items: ["Trousers", "Trout fishing", "Pants", "Cargo pants", "Sweatpants", "Red pants", "Television", "TV stand"]
            .map { StaticProvider.Item(title: $0) }
    )

    func engine(_ synonyms: Synonyms, limit: Int = 8) -> SuggestionEngine {
        var options = EngineOptions()
        options.limit = limit
        options.synonyms = synonyms
        return SuggestionEngine(providers: [clothes], options: options)
    }

    @Test func aHalfTypedWordFindsWhatItsSynonymFindsRankedBelowDirectMatches() throws {
        let synonyms = try Synonyms(groups: [["pants", "trousers"]])
        let result = engine(synonyms).suggestions(for: "trou")
        let titles = result.suggestions.map(\.title)
        // Direct matches first (prefix), then what "pants" finds (prefix, then word-prefix, shorter first).
        #expect(titles == ["Trousers", "Trout fishing", "Pants", "Red pants", "Cargo pants"])
        #expect(result.suggestions[0].synonym == nil)
        let pants = result.suggestions[2]
        #expect(pants.synonym == Synonyms.Match(term: "trousers", replacement: "pants"))
        #expect(pants.matchedRanges == [0..<5])
        // Tab completes only direct matches ("trou" is all that "Trousers" and "Trout fishing" share).
        #expect(result.commonCompletion == nil)
        #expect(engine(synonyms).suggestions(for: "trous").commonCompletion == "Trousers")
    }

    @Test func groupsWorkBothWaysAndOneWayRulesOneWay() throws {
        let synonyms = try Synonyms(groups: [["pants", "trousers"]], oneWay: ["tv": ["television"]])
        #expect(engine(synonyms).suggestions(for: "pant").suggestions.contains { $0.title == "Trousers" })
        let tv = engine(synonyms).suggestions(for: "tv").suggestions
        #expect(tv.map(\.title) == ["TV stand", "Television"])
        #expect(tv[1].synonym?.description == "tv → television")
        // Not the other way round.
        #expect(!engine(synonyms).suggestions(for: "televi").suggestions.contains { $0.title == "TV stand" })
    }

    @Test func shortPrefixesAndUnrelatedTextAskNothingMore() throws {
        let synonyms = try Synonyms(groups: [["pants", "trousers"]])
        // Two letters start too many terms to mean one: only direct matches.
        #expect(engine(synonyms).suggestions(for: "tr").suggestions.allSatisfy { $0.synonym == nil })
        #expect(synonyms.rewrites(of: PreparedQuery(SearchQuery(text: "tr"))).isEmpty)
        #expect(synonyms.rewrites(of: PreparedQuery(SearchQuery(text: "shoes"))).isEmpty)
        // A whole term matches at any length once the word is complete.
        let short = try Synonyms(oneWay: ["tv": ["television"]])
        #expect(short.rewrites(of: PreparedQuery(SearchQuery(text: "tv "))).map(\.query.text) == ["television "])
        // A complete word is not a prefix: "trou " is not "trousers".
        #expect(synonyms.rewrites(of: PreparedQuery(SearchQuery(text: "trou "))).isEmpty)
    }

    @Test func theEndOfTheQueryIsReplacedAndEarlierWordsStay() throws {
        let synonyms = try Synonyms(groups: [["pants", "trousers"], ["new york", "nyc"]])
        let red = synonyms.rewrites(of: PreparedQuery(SearchQuery(text: "Red TROUS")))
        #expect(red.map(\.query.text) == ["red pants"])
        let result = engine(synonyms).suggestions(for: "red trous")
        #expect(result.suggestions.map(\.title) == ["Red pants"])
        // Terms of several words: "new y" is the start of "new york".
        #expect(synonyms.rewrites(of: PreparedQuery(SearchQuery(text: "hotels new yor"))).map(\.query.text) == ["hotels nyc"])
        #expect(synonyms.rewrites(of: PreparedQuery(SearchQuery(text: "nyc"))).map(\.query.text) == ["new york"])
    }

    @Test func aCompletionFoundDirectlyIsNotMarkedAsASynonym() throws {
        // "Sweatpants" is found by "swea" directly; "sweater" → "sweatpants" must not mark it.
        let synonyms = try Synonyms(groups: [["sweater", "sweatpants"]])
        let result = engine(synonyms).suggestions(for: "swea")
        #expect(result.suggestions.map(\.title) == ["Sweatpants"])
        #expect(result.suggestions[0].synonym == nil)
    }

    @Test func expansionsAreBounded() throws {
        var synonyms = try Synonyms(groups: [["trousers", "pants", "slacks", "chinos", "jeans", "breeches", "joggers"]])
        #expect(synonyms.rewrites(of: PreparedQuery(SearchQuery(text: "trouse"))).count == 4)
        synonyms.maximumExpansions = 2
        #expect(synonyms.rewrites(of: PreparedQuery(SearchQuery(text: "trouse"))).map(\.match.replacement) == ["pants", "slacks"])
    }

    /// A group of the most terms and a one-way rule of thousands load in linear time (duplicates found by hashing):
    /// each term of the group stands for every other, once.
    @Test func largeGroupsAndRulesLoadAndKeepEveryTargetOnce() throws {
        let group = (0..<Synonyms.maximumGroupSize).map { "w\($0)" }
        let targets = (0..<5_000).map { "t\($0 % 2_500)" }
        let synonyms = try Synonyms(groups: [group + group], oneWay: ["x": targets])
        #expect(synonyms.rules.count == Synonyms.maximumGroupSize + 1)
        #expect(synonyms.rules.allSatisfy { $0.targets.count == ($0.term == "x" ? 2_500 : Synonyms.maximumGroupSize - 1) })
    }

    @Test func badRulesAreLocated() {
        #expect(throws: ConfigurationError.self) { try Synonyms(groups: [["pants"]]) }
        do {
            _ = try Synonyms(groups: [["pants", "trousers"], ["sofa", " - "]])
            Issue.record("expected an error")
        } catch {
            #expect("\(error)".contains("groups[1][1]"))
        }
        do {
            _ = try Synonyms(oneWay: ["tv": ["TV"]])
            Issue.record("expected an error")
        } catch {
            #expect("\(error)".contains("oneWay[\"tv\"]"))
        }
    }

    @Test func readFromJSONWithLocatedErrors() throws {
        let configuration = try EngineConfiguration(
            json: """
                { "version": 1, "synonyms": [["pants", "trousers"], { "from": "tv", "to": ["television"] }],
                  "providers": [ { "type": "static", "items": [ { "title": "Pants" }, { "title": "Television" } ] } ] }
                """,
            registry: .core)
        #expect(configuration.options.synonyms.count == 3)
        let engine = configuration.makeEngine()
        #expect(engine.suggestions(for: "trous").suggestions.map(\.title) == ["Pants"])
        #expect(engine.suggestions(for: "tv").suggestions.map(\.title) == ["Television"])

        func errors(_ synonyms: String) -> [String] {
            do {
                _ = try EngineConfiguration(
                    json: "{ \"version\": 1, \"synonyms\": \(synonyms), \"providers\": [] }", registry: .core)
                return []
            } catch {
                return error.errors.map(\.description)
            }
        }
        #expect(errors("{}").first?.contains("synonyms: expected an array") == true)
        #expect(errors("[[\"pants\"]]").first?.contains("synonyms[0]: expected at least two different terms") == true)
        #expect(errors("[[\"pants\", 3]]").first?.contains("synonyms[0][1]: expected a string") == true)
        let big = "[[" + (0...Synonyms.maximumGroupSize).map { "\"w\($0)\"" }.joined(separator: ",") + "]]"
        #expect(
            errors(big).first?.contains("synonyms[0]: expected at most 100 different terms in a group") == true,
            "\(errors(big))")
        #expect(errors("[[\"pants\", \"\"]]").first?.contains("synonyms[0][1]: expected a term") == true)
        #expect(errors("[{\"from\": \"tv\"}]").first?.contains("synonyms[0].to: expected an array") == true)
        #expect(errors("[{\"from\": \"tv\", \"to\": [1]}]").first?.contains("synonyms[0].to[0]: expected a string") == true)
        #expect(errors("[{\"form\": \"tv\", \"to\": [\"x\"]}]").first?.contains("did you mean \"from\"") == true)
        #expect(errors("[{\"from\": \"tv\", \"to\": [\"TV\"]}]").first?.contains("synonyms[0].to: expected at least one term") == true)
        #expect(errors("[\"pants\"]").first?.contains("synonyms[0]: expected a group") == true)
    }
}
