import SuggestCore
import Testing

@testable import SuggestFuzzy

/// The typo walk against a brute-force optimal-string-alignment distance over every key.
struct TypoSearchTests {
    static let words: [String] = [
        "python", "pytest", "pyramid", "path", "pythons", "receive", "received", "relieve", "recipe", "recite",
        "separate", "separation", "github", "gather", "new york", "new yorker", "newark", "café", "cafeteria",
        "москва", "московский", "straße", "a", "ab", "abc", "abcd", "abcde", "bcde", "acbd", "the", "teh", "then",
        "there", "their", "thier", "receipt", "recieve me", "ｆｕｌｌ", "naïve", "naive",
    ]
    static let dictionary = WeightedDictionary(entries: words.map { (text: $0, weight: 1, scope: nil) })
    static let index = FuzzyIndex(dictionary)

    static func osa(_ a: [UInt32], _ b: [UInt32]) -> Int {
        let n = a.count
        let m = b.count
        if n == 0 { return m }
        if m == 0 { return n }
        var d = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
        for i in 0...n { d[i][0] = i }
        for j in 0...m { d[0][j] = j }
        for i in 1...n {
            for j in 1...m {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[n][m]
    }

    /// Expected typos per sorted position (nil: no match).
    static func expected(_ query: [UInt32], budget: Int, wholeWord: Bool, exactPrefix: Int) -> [Int?] {
        (0..<index.count).map { i in
            let key = FuzzyMatcher.scalars(Array(index.key(at: i).utf8))
            let e = min(exactPrefix, query.count)
            if key.count < e || Array(key.prefix(e)) != Array(query.prefix(e)) { return nil }
            let d: Int
            if wholeWord {
                d = osa(query, key)
            } else {
                d = (0...key.count).map { osa(query, Array(key.prefix($0))) }.min()!
            }
            return d <= budget ? d : nil
        }
    }

    static func actual(_ query: [UInt32], budget: Int, wholeWord: Bool, exactPrefix: Int) -> [Int?] {
        var search = TypoSearch(
            index: index, query: query, maxTypos: budget, transpositions: true, wholeWord: wholeWord,
            exactPrefix: exactPrefix
        )
        search.run()
        var result = [Int?](repeating: nil, count: index.count)
        for piece in FuzzyIndex.disjointPieces(search.hits) {
            for i in Int(piece.lo)..<Int(piece.hi) { result[i] = Int(piece.typos) }
        }
        return result
    }

    static let queries: [String] = [
        "pyhto", "pyth", "p", "recieve", "reciev", "seperat", "abdc", "bacd", "cafe", "kafe", "моксва", "моск",
        "teh", "thier", "thre", "new yrok", "newyork", "strase", "ｆｕｌｌ", "naiev", "xyz", "abcdefgh", "ab",
    ]

    @Test(arguments: queries)
    func walkFindsExactlyTheKeysWithinBudget(text: String) {
        let query = FuzzyMatcher.scalars(TextNormalizer.normalized(text))
        for budget in 0...2 {
            for exactPrefix in [0, 1] {
                for wholeWord in [false, true] {
                    let want = Self.expected(query, budget: budget, wholeWord: wholeWord, exactPrefix: exactPrefix)
                    let got = Self.actual(query, budget: budget, wholeWord: wholeWord, exactPrefix: exactPrefix)
                    #expect(got == want, "\(text) budget \(budget) exactPrefix \(exactPrefix) wholeWord \(wholeWord)")
                }
            }
        }
    }

    @Test func restartingBelowPreviousHitsFindsTheSameHits() {
        // Typing one more character with the same budget walks only below the previous keystroke's hits.
        for text in ["pyhto", "recieve", "seperation", "моксва", "abcdefgh", "thier"] {
            let scalars = FuzzyMatcher.scalars(TextNormalizer.normalized(text))
            for n in 2..<scalars.count {
                let before = Array(scalars.prefix(n - 1))
                let after = Array(scalars.prefix(n))
                var first = TypoSearch(
                    index: Self.index, query: before, maxTypos: 2, transpositions: true, wholeWord: false, exactPrefix: 0
                )
                first.run()
                let matcher = FuzzyMatcher(index: Self.index, options: FuzzyOptions())
                var second = TypoSearch(
                    index: Self.index, query: after, maxTypos: 2, transpositions: true, wholeWord: false, exactPrefix: 0
                )
                second.run(from: matcher.restartNodes(first.hits))
                let want = Self.actual(after, budget: 2, wholeWord: false, exactPrefix: 0)
                var got = [Int?](repeating: nil, count: Self.index.count)
                for piece in FuzzyIndex.disjointPieces(second.hits) {
                    for i in Int(piece.lo)..<Int(piece.hi) { got[i] = Int(piece.typos) }
                }
                #expect(got == want, "\(text) at \(n)")
            }
        }
    }

    @Test func indexSortsFoldedKeysAndFindsTheHeaviest() {
        let keys = (0..<Self.index.count).map { Self.index.key(at: $0) }
        #expect(keys == keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        let weighted = FuzzyIndex(
            WeightedDictionary(entries: [("b", 5, nil), ("a", 1, nil), ("c", 9, nil), ("d", 9, nil), ("e", 2, nil)])
        )
        #expect(weighted.argmax(0..<5) == 2)  // "c" (9), the earlier of the two nines
        #expect(weighted.argmax(3..<5) == 3)
        #expect(weighted.argmax(0..<2) == 1)
        var order: [Int] = []
        weighted.forEachHeaviest(in: [0..<2, 3..<5], limit: 3, skip: { $0 == 3 }) { position, _ in order.append(position) }
        #expect(order == [1, 4, 0])
    }
}
