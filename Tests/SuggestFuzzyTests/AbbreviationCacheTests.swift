import SuggestCore
import Testing

@testable import SuggestFuzzy

/// The survivors of abbreviation scans kept across typing sessions change no answer, and stay bounded.
struct AbbreviationCacheTests {
    @Test func theLongestKeptPrefixAtAScalarBoundaryIsFound() {
        let cache = AbbreviationCache()
        #expect(cache.longestPrefix(of: Array("abc".utf8)) == nil)
        cache.insert(Array("abc".utf8), survivors: [1, 2, 3])
        cache.insert(Array("abcd".utf8), survivors: [2])
        #expect(cache.longestPrefix(of: Array("abcde".utf8)) == [2])
        #expect(cache.longestPrefix(of: Array("abcx".utf8)) == [1, 2, 3])
        #expect(cache.longestPrefix(of: Array("ab".utf8)) == nil)
        // "abé" is a, b and the two bytes of é: its first byte alone is not a prefix.
        cache.insert([0x61, 0x62, 0xC3], survivors: [9])
        #expect(cache.longestPrefix(of: Array("abé".utf8)) == nil)
        // Patterns of more than 8 bytes are not kept.
        cache.insert(Array("abcdefghi".utf8), survivors: [7])
        #expect(cache.longestPrefix(of: Array("abcdefghi".utf8)) == [2])
    }

    @Test func theLeastRecentlyUsedPatternsAreDroppedFirst() {
        let cache = AbbreviationCache()
        func pattern(_ i: Int) -> [UInt8] { Array("p\(i)".utf8) }
        for i in 0..<AbbreviationCache.capacity { cache.insert(pattern(i), survivors: [Int32(i)]) }
        #expect(cache.count == AbbreviationCache.capacity)
        // Pattern 0 used again: pattern 1 is now the least recently used.
        #expect(cache.longestPrefix(of: pattern(0)) == [0])
        cache.insert(pattern(AbbreviationCache.capacity), survivors: [1])
        #expect(cache.count == AbbreviationCache.capacity)
        #expect(cache.longestPrefix(of: pattern(0)) == [0])
        #expect(cache.longestPrefix(of: pattern(1)) == nil)
        // The positions are bounded too.
        let large = [Int32](repeating: 0, count: AbbreviationCache.positionCapacity / 2 + 1)
        cache.insert(Array("big1".utf8), survivors: large)
        cache.insert(Array("big2".utf8), survivors: large)
        #expect(cache.longestPrefix(of: Array("big1".utf8)) == nil)
        #expect(cache.longestPrefix(of: Array("big2".utf8))?.count == large.count)
    }

    /// Abbreviations only (no prefix matches to fill the list).
    static func abbreviations(_ query: String, _ index: FuzzyIndex) throws -> [Candidate] {
        var options = FuzzyOptions()
        options.prefixMatches = false
        let provider = try FuzzyProvider(index: index, options: options)
        var output = ProviderOutput()
        try provider.suggest(
            SuggestionRequest(query: PreparedQuery(SearchQuery(text: query)), limit: 10), into: &output)
        return output.candidates.filter { $0.tier == .subsequence }.map {
            Candidate(title: $0.title, popularity: $0.popularity)
        }
    }

    struct Candidate: Equatable {
        var title: String
        var popularity: Double
    }

    @Test func answersFromKeptSurvivorsAreThoseOfAFreshIndex() throws {
        // Names of three or four words over few letters, so that patterns share their first characters.
        var random = AbbreviationFilterTests.Generator(state: 5)
        let consonants = Array("bdlmst"), vowels = Array("aeo")
        func word() -> String {
            String((0..<(2 + random.next(3))).flatMap { _ in
                [consonants[random.next(consonants.count)], vowels[random.next(vowels.count)]]
            })
        }
        var names: Set<String> = []
        while names.count < 3_000 { names.insert((0..<(3 + random.next(2))).map { _ in word() }.joined(separator: " ")) }
        let texts = names.sorted()
        let dictionary = WeightedDictionary(
            entries: texts.map { (text: $0, weight: Double(1 + random.next(1_000)), scope: nil) })
        let shared = FuzzyIndex(dictionary)
        // Every scan of a whole range, nothing kept.
        let unkept = FuzzyIndex(dictionary)
        unkept.abbreviations.isEnabled = false
        var found = 0
        for _ in 0..<200 {
            // The first letter of each word of a name, some with the consonant after it: 4 to 8 characters.
            let words = texts[random.next(texts.count)].split(separator: " ").map(Array.init)
            var pattern: [Character] = []
            for word in words {
                pattern.append(word[0])
                if random.next(2) == 0 { pattern.append(word[2]) }
            }
            let query = String(pattern)
            let warm = try Self.abbreviations(query, shared)
            let cold = try Self.abbreviations(query, unkept)
            #expect(warm == cold, "\(query)")
            found += warm.count
        }
        #expect(found > 500)
        // Scans of whole ranges kept their first three characters' survivors.
        #expect(shared.abbreviations.count > 10)
        #expect(unkept.abbreviations.count == 0)
    }
}
