import Foundation

import SuggestCore
import SuggestIndex
import SuggestPrefix
import Testing

@testable import SuggestFuzzy

/// The committed sample of real misspellings against the test dictionary.
struct FuzzyMisspellingSampleTests {
    static let pairs: [(String, String)] = {
        let path = Bundle.module.url(
            forResource: "misspellings-sample", withExtension: "tsv", subdirectory: "Fixtures"
        )!.path
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            if line.hasPrefix("#") { return nil }
            let parts = line.split(separator: "\t")
            return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
        }
    }()

    @Test func everySampleMisspellingFindsItsWordFirst() {
        #expect(Self.pairs.count == 10)
        let engine = SuggestionEngine(slots: [ProviderSlot(Fixture.provider())])
        for (wrong, right) in Self.pairs {
            #expect(engine.suggestions(for: wrong).suggestions.first?.title == right, "\(wrong)")
        }
    }

    @Test func everySampleMisspellingMinusItsLastLetterFindsItsWordInTheTopFive() {
        let engine = SuggestionEngine(slots: [ProviderSlot(Fixture.provider())])
        for (wrong, right) in Self.pairs {
            let titles = engine.suggestions(for: String(wrong.dropLast())).suggestions.prefix(5).map(\.title)
            #expect(titles.contains(right), "\(wrong.dropLast()): \(titles)")
        }
    }
}
