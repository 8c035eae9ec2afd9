import SuggestCore
import Testing

@testable import SuggestIndex

struct RareScopeTests {
    /// A scope that few entries have: the search falls back to one scan of the run and still returns the best.
    @Test func rareScopeFindsTheBestMatchesInOrder() {
        var random = SplitMix(state: 7)
        var entries: [(text: String, weight: Double, scope: String?)] = []
        for i in 0..<3_000 {
            let scope: String? = i % 500 == 3 ? "rare" : (i % 300 == 5 ? nil : "common")
            let weight = Double(Int.random(in: 0...1_000, using: &random))
            entries.append(("a\(i) word\(i % 13)", weight, scope))
        }
        let dictionary = WeightedDictionary(entries: entries)
        let index = PrefixIndex(dictionary: dictionary)
        for (text, infix) in [("a", false), ("a1", false), ("word1", true), ("word", true)] {
            let expected = (0..<dictionary.count)
                .filter { dictionary.scope(at: $0) == "rare" || dictionary.scope(at: $0) == nil }
                .filter {
                    let key = IndexKey.keyAndWordStarts(dictionary.text(at: $0))
                    let q = Array(text.utf8)
                    return key.key.starts(with: q) || (infix && key.wordStarts.contains { key.key[$0...].starts(with: q) })
                }
                .sorted {
                    let a = dictionary.weight(at: $0)
                    let b = dictionary.weight(at: $1)
                    if a != b { return a > b }
                    let ka = IndexKey.key(dictionary.text(at: $0))
                    let kb = IndexKey.key(dictionary.text(at: $1))
                    if ka.count != kb.count { return ka.count < kb.count }
                    return ka.lexicographicallyPrecedes(kb)
                }
                .prefix(10)
                .map { dictionary.text(at: $0) }
            // 6 rare and 10 unscoped entries among 3,000: far more rejections than the heap's patience.
            #expect(index.complete(text, infix: infix, scope: "rare") == Array(expected), "\(text)")
        }
        // Hidden entries (live updates) take the same path.
        var buffer = PrefixIndex.SearchBuffer()
        index.search(
            PreparedQuery(SearchQuery(text: "a")), limit: 5, infix: false, into: &buffer,
            accept: { dictionary.scope(at: Int($0)) == "rare" })
        let rare = (0..<dictionary.count).filter { dictionary.scope(at: $0) == "rare" }
            .sorted { dictionary.weight(at: $0) > dictionary.weight(at: $1) }
        #expect(buffer.hits.map { Int($0.entry) } == Array(rare.prefix(5)))
    }
}
