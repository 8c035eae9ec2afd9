import Foundation

import SuggestCore
import SuggestIndex
import SuggestPrefix
import Testing

@testable import SuggestFuzzy

/// The Swift example of the fuzzy matching guide (SuggestFuzzy.docc/FuzzyMatching.md), kept compiling and true.
struct FuzzyReadmeExampleTests {
    @Test func readmeExample() throws {
        let path = Fixture.path
        // --- guide example ---
        let dictionary = try DictionaryLoader.load(path: path)
        let fuzzy = try FuzzyProvider(id: "fuzzy", dictionary: dictionary)
        let engine = SuggestionEngine(slots: [ProviderSlot(fuzzy)])
        var session = TypingSession()
        var last: SuggestionResult? = nil
        for text in ["p", "py", "pyh", "pyht", "pyhto"] {
            last = engine.suggestions(for: SearchQuery(text: text), session: &session)
        }
        let top = last?.suggestions.first
        // top?.title == "python", top?.tier == .oneTypo, top?.matchedRanges == [0..<5]

        var options = FuzzyOptions()
        options.minLengthOneTypo = 3  // one typo from 3 characters
        options.exactPrefixLength = 0  // the first character may be wrong too
        let lenient = try FuzzyProvider(id: "lenient", index: fuzzy.index, options: options)  // shares the index

        // With a prefix provider on the same dictionary, build one PrefixIndex and give it to both:
        let prefixIndex = PrefixIndex(dictionary: dictionary)
        var beside = FuzzyOptions()
        beside.offersPrefixMatches = false  // the prefix provider offers them
        beside.everyWord = false  // and its every-word matches
        let both = SuggestionEngine(slots: [
            ProviderSlot(PrefixProvider(index: prefixIndex)),
            ProviderSlot(try FuzzyProvider(index: FuzzyIndex(prefixIndex), options: beside)),
        ])
        // --- end ---
        #expect(both.suggestions(for: "pyhto").suggestions.first?.title == "python")
        #expect(top?.title == "python")
        #expect(top?.tier == .oneTypo)
        #expect(top?.matchedRanges == [0..<5])
        let found = SuggestionEngine(slots: [ProviderSlot(lenient)]).suggestions(for: "xyt").suggestions
        #expect(found.contains { $0.title == "python" })
    }
}
