import Suggest
import SuggestWire
import Testing

/// A `suggest batch` answer read back into candidates (the remote provider's side of the wire).
struct BatchAnswerTests {
    @Test func anAnswerReadsBackIntoItsCandidates() throws {
        let engine = SuggestionEngine(providers: [
            StaticProvider(items: [
                .init(title: "Apple", systemImage: "leaf"), .init(title: "Apricot"),
                .init(title: "Chicken", completion: .token(SearchToken(kind: "ingredient", value: "Chicken"))),
            ])
        ])
        for text in ["ap", "chi"] {
            let result = engine.suggestions(for: text)
            let answer = try JSONParser.parse(JSONWriter.result(result, text: text))
            let output = try BatchAnswer.output(from: answer, limit: 10)
            #expect(output.candidates.map(\.title) == result.suggestions.map(\.title))
            #expect(output.candidates.map(\.completion) == result.suggestions.map(\.completion))
            #expect(output.candidates.map(\.tier) == result.suggestions.map(\.tier))
            #expect(output.candidates.map(\.matchedRanges) == result.suggestions.map(\.matchedRanges))
        }
    }

    @Test func theKindsOfTyposFactorTravelsWithACorrection() throws {
        var weather = Suggestion(title: "weather", completion: .text("weather"), tier: .oneTypo, typos: 1)
        weather.typoKindFactor = 6.25
        let plain = Suggestion(title: "either", completion: .text("either"), tier: .oneTypo, typos: 1)
        let result = SuggestionResult(sections: [.init(title: "Suggestions", suggestions: [weather, plain])])
        let answer = try JSONParser.parse(JSONWriter.result(result, text: "weither"))
        guard case .array(let suggestions)? = answer["suggestions"] else {
            Issue.record("no suggestions in \(answer)")
            return
        }
        #expect(suggestions[0]["typoKindFactor"] == .number(6.25))
        // 1 (not weighed) is left out.
        #expect(suggestions[1]["typoKindFactor"] == nil)
        let output = try BatchAnswer.output(from: answer, limit: 10)
        #expect(output.candidates.map(\.typoKindFactor) == [6.25, 1])
    }

    @Test func aTypoMatchInAnotherWordOrderSaysSo() throws {
        var django = Suggestion(
            title: "django-rest-framework", completion: .text("django-rest-framework"), tier: .oneTypo, typos: 1)
        django.wordsOutOfOrder = true
        let tools = Suggestion(
            title: "framework-rest-tools", completion: .text("framework-rest-tools"), tier: .oneTypo, typos: 1)
        let result = SuggestionResult(sections: [.init(title: "Suggestions", suggestions: [tools, django])])
        let answer = try JSONParser.parse(JSONWriter.result(result, text: "framewrk rest"))
        guard case .array(let suggestions)? = answer["suggestions"] else {
            Issue.record("no suggestions in \(answer)")
            return
        }
        // Left out when false.
        #expect(suggestions[0]["wordsOutOfOrder"] == nil)
        #expect(suggestions[1]["wordsOutOfOrder"] == .bool(true))
        let output = try BatchAnswer.output(from: answer, limit: 10)
        #expect(output.candidates.map(\.wordsOutOfOrder) == [false, true])
    }

    @Test func aSuggestionFoundThroughASynonymSaysWhichOne() throws {
        var options = EngineOptions()
        options.synonyms = try Synonyms(groups: [["pants", "trousers"]])
        let engine = SuggestionEngine(
            providers: [StaticProvider(items: [.init(title: "Trousers"), .init(title: "Pants")])], options: options)
        let answer = try JSONParser.parse(JSONWriter.result(engine.suggestions(for: "trou"), text: "trou"))
        guard case .array(let suggestions)? = answer["suggestions"] else {
            Issue.record("no suggestions in \(answer)")
            return
        }
        #expect(suggestions.count == 2)
        #expect(suggestions[0]["synonym"] == nil)
        #expect(suggestions[1]["synonym"]?["term"]?.stringValue == "trousers")
        #expect(suggestions[1]["synonym"]?["replacement"]?.stringValue == "pants")
    }

    @Test func anAnswerWithoutSuggestionsIsAProblem() throws {
        #expect(throws: BatchCommand.Problem("answer without \"suggestions\"")) {
            try BatchAnswer.output(from: try JSONParser.parse(#"{"error":"x"}"#), limit: 10)
        }
        #expect(throws: BatchCommand.Problem("a suggestion without \"text\"")) {
            try BatchAnswer.output(from: try JSONParser.parse(#"{"suggestions":[{"title":"x"}]}"#), limit: 10)
        }
    }
}
