import Foundation

import SuggestCore
import SuggestIndex
import SuggestPrefix
import Testing

@testable import SuggestFuzzy

/// Entries that fold to one key ("Café", "cafe", "CAFE") are one completion: the fuzzy provider offers the most
/// popular of them once, so the engine's list is not short after it merges them.
struct FuzzyVariantTests {
    static let dictionary = WeightedDictionary(entries: [
        ("cafe", 900, nil), ("Café", 800, nil), ("CAFE", 700, nil), ("café", 600, nil),
        ("cafeteria", 500, nil), ("Cafeteria", 400, nil), ("cafes", 300, nil), ("caffeine", 200, nil),
        ("cage", 150, nil), ("cake", 140, nil), ("cane", 130, nil), ("case", 120, nil), ("cave", 110, nil),
        ("safe", 100, nil), ("Safe", 99, nil), ("carfe", 50, nil), ("cofe", 40, nil), ("cafè", 30, nil),
    ])

    /// The same entries without the less popular forms of each key.
    static let withoutVariants: WeightedDictionary = {
        var seen = Set<[UInt8]>()
        var entries: [(text: String, weight: Double, scope: String?)] = []
        for i in 0..<dictionary.count where seen.insert(IndexKey.key(dictionary.text(at: i))).inserted {
            entries.append((dictionary.text(at: i), dictionary.weight(at: i), nil))
        }
        return WeightedDictionary(entries: entries)
    }()

    func engine(
        limit: Int, prefixMatches: Bool = true, dictionary: WeightedDictionary = dictionary
    ) throws -> SuggestionEngine {
        var fuzzyOptions = FuzzyOptions()
        fuzzyOptions.prefixMatches = prefixMatches
        fuzzyOptions.minLengthOneTypo = 3
        let provider = try FuzzyProvider(index: FuzzyIndex(PrefixIndex(dictionary: dictionary)), options: fuzzyOptions)
        var options = EngineOptions()
        options.limit = limit
        return SuggestionEngine(slots: [ProviderSlot(provider)], options: options)
    }

    @Test(arguments: [2, 4, 6, 8])
    func variantsChangeNothingButTheirOwnPlace(limit: Int) throws {
        // The lists are those of the dictionary without the variants: as full, and of distinct completions.
        let engine = try self.engine(limit: limit)
        let plain = try self.engine(limit: limit, dictionary: Self.withoutVariants)
        for text in ["caf", "cafe", "cafr", "cae", "cfe", "safe", "CAFÉ"] {
            let titles = engine.suggestions(for: text).suggestions.map(\.title)
            #expect(titles == plain.suggestions(for: text).suggestions.map(\.title), "\(text)")
            #expect(Set(titles.map { IndexKey.key($0) }).count == titles.count, "\(text): \(titles)")
        }
        #expect(engine.suggestions(for: "caf").suggestions.count == limit)
        // The most popular form is the one shown.
        #expect(engine.suggestions(for: "cafe").suggestions.first?.title == "cafe")
    }

    @Test func typoTiersOfferEachKeyOnce() throws {
        let engine = try engine(limit: 8, prefixMatches: false)
        let titles = engine.suggestions(for: "cafr").suggestions.map(\.title)
        #expect(Set(titles.map { IndexKey.key($0) }).count == titles.count, "\(titles)")
        #expect(titles.contains("cafe") && !titles.contains("Café") && !titles.contains("CAFE"))
    }
}
