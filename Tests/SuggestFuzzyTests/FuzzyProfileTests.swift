import SuggestCore
import Testing

@testable import SuggestFuzzy

/// The `profile` option: one note per keystroke with every step's time and work.
struct FuzzyProfileTests {
    func answer(_ provider: FuzzyProvider, _ text: String) throws -> ProviderOutput {
        var output = ProviderOutput()
        try provider.suggest(SuggestionRequest(query: PreparedQuery(SearchQuery(text: text)), limit: 10), into: &output)
        return output
    }

    @Test func aProfiledKeystrokeNotesEveryStepWithItsWork() throws {
        let provider = Fixture.provider { $0.profile = true }
        let output = try answer(provider, "pyhton")
        let note = try #require(output.notes.first { $0.hasPrefix("steps: ") })
        for step in [
            "walk", "tiers", "wrong-first", "abbreviations", "whole-words", "whole-words-wrong-first", "every-word",
        ] {
            #expect(note.contains("\(step) "), "missing \(step) in \(note)")
        }
        // A misspelling with no entry starting with it walks the trie: the walk's node count is not zero.
        let walk = try #require(note.firstMatch(of: /walk [0-9.]+ µs ([0-9]+) nodes/))
        #expect(Int(walk.1) ?? 0 > 0)
        // The same answer as without the profile.
        let plain = try answer(Fixture.provider(), "pyhton")
        #expect(plain.candidates == output.candidates)
        #expect(plain.notes.isEmpty)
    }

    @Test func theOptionIsReadFromJSONAndNotesThroughTheEngine() throws {
        let configuration = try FuzzyConfigurationTests.load(
            #"{ "type": "fuzzy", "dictionary": "words.tsv", "profile": true }"#)
        let provider = try #require(configuration.slots.first?.provider as? FuzzyProvider)
        #expect(provider.options.profile)
        let result = configuration.makeEngine().suggestions(for: "pyhton")
        #expect(result.diagnostics.notes.contains { $0.hasPrefix("fuzzy: steps: walk ") })
        let plain = try FuzzyConfigurationTests.load(#"{ "type": "fuzzy", "dictionary": "words.tsv" }"#)
        #expect(provider.options.profile != (plain.slots.first?.provider as? FuzzyProvider)?.options.profile)
    }
}
