import Foundation

import SuggestCore
import SuggestIndex
import SuggestPrefix
import Testing

@testable import SuggestFuzzy

/// The hard ceilings of a keystroke: the typo walks' nodes and the abbreviation scan's checks.
struct FuzzyCeilingTests {
    func answer(_ provider: FuzzyProvider, _ text: String, previous: (any Sendable)? = nil) throws -> ProviderOutput {
        var output = ProviderOutput()
        let request = SuggestionRequest(query: PreparedQuery(SearchQuery(text: text)), limit: 10, previousState: previous)
        try provider.suggest(request, into: &output)
        return output
    }

    @Test func aWalkCutShortAnswersWithWhatItFoundAndSaysSo() throws {
        let free = Fixture.provider()
        let tight = Fixture.provider { $0.maxWalkNodes = 3 }
        let full = try answer(free, "pyhton")
        let cut = try answer(tight, "pyhton")
        #expect(full.notes.isEmpty)
        #expect(full.candidates.contains { $0.title == "python" })
        #expect(cut.notes.contains { $0.contains("typo search stopped at maxWalkNodes (3)") })
        // What it found is a subset of the full answer.
        #expect(Set(cut.candidates.map(\.title)).isSubset(of: Set(full.candidates.map(\.title))))
        // The next keystroke does not narrow from the cut walk's hits.
        let state = try #require(cut.state as? FuzzyKept)
        #expect(state.hits == nil)
    }

    @Test func anAbbreviationScanCutShortSaysSo() throws {
        let tight = Fixture.provider { $0.maxAbbreviationChecks = 1 }
        let output = try answer(tight, "nyt")
        #expect(output.notes.contains { $0.contains("abbreviation scan stopped at maxAbbreviationChecks (1)") })
        let state = try #require(output.state as? FuzzyKept)
        #expect(state.survivors == nil)
        #expect(try answer(Fixture.provider(), "nyt").notes.isEmpty)
    }

    @Test func ceilingsAndTheThresholdAreReadAndChecked() throws {
        let configuration = try FuzzyConfigurationTests.load(
            #"{ "type": "fuzzy", "dictionary": "words.tsv", "maxWalkNodes": 500, "maxAbbreviationChecks": 0, "#
                + #""typoThreshold": 2 }"#)
        let provider = try #require(configuration.slots.first?.provider as? FuzzyProvider)
        #expect(provider.options.maxWalkNodes == 500)
        #expect(provider.options.maxAbbreviationChecks == 0)
        #expect(provider.options.typoThreshold == 2)
        for (key, value, message) in [
            ("maxWalkNodes", "-1", "providers[0].maxWalkNodes: expected 0 (no ceiling) to 100000000, found -1"),
            ("maxAbbreviationChecks", "1e9", "providers[0].maxAbbreviationChecks: expected 0 (no ceiling) to 100000000"),
            ("typoThreshold", "1001", "providers[0].typoThreshold: expected 0 (the limit) to 1000, found 1001"),
        ] {
            do {
                _ = try FuzzyConfigurationTests.load(
                    #"{ "type": "fuzzy", "dictionary": "words.tsv", ""# + key + #"": "# + value + " }")
                Issue.record("\(key): no error")
            } catch {
                #expect(error.description.contains(message), "\(error)")
            }
        }
    }

    @Test func aThresholdBelowTheLimitSkipsTyposWhenThatManyKeysStartWithTheText() throws {
        // "pyt" starts python, pytest, pytorch: with a threshold of 2 no typo or abbreviation is looked for.
        let strict = Fixture.provider { $0.typoThreshold = 2; $0.minLengthOneTypo = 3 }
        let output = try answer(strict, "pyt")
        #expect(output.candidates.allSatisfy { $0.tier == .prefix || $0.tier == .exact })
    }
}
