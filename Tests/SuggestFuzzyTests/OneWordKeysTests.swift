import SuggestCore
import SuggestIndex
import Testing

@testable import SuggestFuzzy

struct OneWordKeysTests {
    /// A deterministic list of one- to three-word keys with distinct weights.
    static func entries(count: Int, seed: UInt64) -> [(String, Double, String?)] {
        var state = seed
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        let letters = Array("abcdefgh")
        var entries: [(String, Double, String?)] = []
        var seen = Set<String>()
        while entries.count < count {
            let words = 1 + Int(next() % 3)
            let text = (0..<words).map { _ in
                String((0..<(1 + Int(next() % 4))).map { _ in letters[Int(next() % 8)] })
            }.joined(separator: " ")
            guard seen.insert(text).inserted else { continue }
            entries.append((text, Double(1 + entries.count), nil))
        }
        return entries
    }

    @Test(arguments: [(600, 1), (5_000, 2), (20_000, 3)])
    func theOneWordKeysOfAnyRangesComeMostPopularFirst(count: Int, seed: UInt64) {
        let index = FuzzyIndex(WeightedDictionary(entries: Self.entries(count: count, seed: seed)))
        let n = index.count
        var state = seed
        func random(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for _ in 0..<200 {
            // One to three disjoint ranges, some of them long (across blocks) and some empty.
            var cuts = (0..<(2 * (1 + random(3)))).map { _ in random(n + 1) }.sorted()
            if random(4) == 0 { cuts = [0, n] }
            var ranges: [Range<Int>] = []
            for i in stride(from: 0, to: cuts.count - 1, by: 2) { ranges.append(cuts[i]..<cuts[i + 1]) }
            let skipped = random(5)
            let expected = ranges.flatMap { $0 }
                .filter { index.wordCount($0) <= 1 && $0 % 5 != skipped }
                .sorted { index.rank($0) < index.rank($1) }
            let limit = 1 + random(40)
            var heap: [RangeMaximum] = []
            var found: [Int] = []
            index.forEachOneWordHeaviestWhile(
                in: ranges, oneWord: index.oneWord, limit: limit, heap: &heap, skip: { $0 % 5 == skipped }
            ) { position, piece in
                #expect(ranges[piece].contains(position))
                found.append(position)
                return true
            }
            #expect(found == Array(expected.prefix(limit)), "\(ranges)")
        }
    }

    /// One-word queries whose completions are mostly phrases heavier than the words being typed (`pan`, `pand`:
    /// the 40 heaviest keys are phrases, so the tiers pull in two parts), and some that are not: every list is the one pulling by weight alone gives, in every
    /// tier, alone and through the engine.
    @Test func pullingInTwoPartsGivesTheListsOfPullingByWeightAlone() throws {
        var entries: [(String, Double, String?)] = []
        for i in 0..<150 { entries.append(("pand x\(i)", Double(10_000 + i * 7), nil)) }
        for i in 0..<15 { entries.append(("pand\(String(repeating: "a", count: 1 + i % 5))\(i)", Double(20 + i), nil)) }
        for i in 0..<40 { entries.append(("panel \(i) y", Double(50_000 + i), nil)) }
        for i in 0..<12 { entries.append(("paneling\(i)", Double(300 + i), nil)) }
        entries.append(("pand big", 900_000, nil))
        entries.append(("pand bigger", 2_500_000, nil))
        entries.append(("panda", 5, nil))
        entries += Self.entries(count: 3_000, seed: 7)
        let dictionary = WeightedDictionary(entries: entries)
        var alone = FuzzyOptions()
        alone.pullsInTwoParts = false
        let twoParts = try FuzzyProvider(dictionary: dictionary)
        let byWeight = try FuzzyProvider(dictionary: dictionary, options: alone)
        for text in ["p", "pa", "pan", "pand", "pamd", "pandx", "panel", "panl", "panelin", "pabeling", "a", "ab", "abc",
                     "bad", "hgf", "cafe", "dd", "pand x1", "panel 3"] {
            for limit in [5, 10, 20] {
                let query = PreparedQuery(SearchQuery(text: text))
                var a = ProviderOutput()
                var b = ProviderOutput()
                try twoParts.suggest(SuggestionRequest(query: query, limit: limit), into: &a)
                try byWeight.suggest(SuggestionRequest(query: query, limit: limit), into: &b)
                #expect(a.candidates == b.candidates, "\(text) \(limit)")
            }
        }
        let engine = SuggestionEngine(slots: [ProviderSlot(twoParts)])
        let reference = SuggestionEngine(slots: [ProviderSlot(byWeight)])
        for text in ["pan", "pamd", "panelin"] {
            #expect(engine.suggestions(for: text).suggestions == reference.suggestions(for: text).suggestions)
        }
    }
}

