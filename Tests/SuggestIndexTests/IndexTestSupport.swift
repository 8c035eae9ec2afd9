import Foundation
import SuggestCore

@testable import SuggestIndex

enum Fixture {
    static var directory: String { Bundle.module.path(forResource: "Fixtures", ofType: nil)! }
    static func dictionary(_ name: String = "words.tsv") throws -> WeightedDictionary {
        try DictionaryLoader.load(path: directory + "/" + name)
    }
}

extension PrefixIndex {
    /// The texts of the completions of `text`, with their tiers.
    func complete(
        _ text: String, limit: Int = 10, infix: Bool = true, everyWord: Bool = false, scope: String? = nil
    ) -> [String] {
        var buffer = SearchBuffer()
        let query = PreparedQuery(SearchQuery(text: text, scope: scope.map { SearchScope($0) }))
        search(query, limit: limit, infix: infix, everyWord: everyWord, into: &buffer)
        return buffer.hits.map { dictionary.text(at: Int($0.entry)) }
    }

    func tiers(_ text: String, limit: Int = 10, everyWord: Bool = false) -> [MatchTier] {
        var buffer = SearchBuffer()
        search(PreparedQuery(SearchQuery(text: text)), limit: limit, everyWord: everyWord, into: &buffer)
        return buffer.hits.map(\.tier)
    }
}

/// A small deterministic random generator (SplitMix64) for property tests.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
