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

    static func osa(_ a: [UInt32], _ b: [UInt32], transpositions: Bool = true) -> Int {
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
                if transpositions && i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[n][m]
    }

    /// Expected typos per sorted position (nil: no match).
    /// With `forgiven`, keys whose first `exactPrefix` scalars differ from the query's are kept when within one typo.
    static func expected(
        _ query: [UInt32], budget: Int, wholeWord: Bool, exactPrefix: Int, forgiven: Int = 0,
        transpositions: Bool = true, swap: Bool = false, in index: FuzzyIndex = index
    ) -> [Int?] {
        (0..<index.count).map { i in
            let key = FuzzyMatcher.scalars(Array(index.key(at: i).utf8))
            let e = min(exactPrefix, query.count)
            var limit = budget
            if key.count < e || Array(key.prefix(e)) != Array(query.prefix(e)) {
                // With an exact prefix of one, the first two characters swapped are an ordinary typo.
                if swap && e == 1 && transpositions && query.count >= 2 && query[0] != query[1] && key.count >= 2
                    && key[0] == query[1] && key[1] == query[0]
                {
                    limit = budget
                } else {
                    guard forgiven > 0 && key.count >= e else { return nil }
                    limit = min(budget, forgiven)
                }
            }
            let d: Int
            if wholeWord {
                d = osa(query, key, transpositions: transpositions)
            } else {
                d = (e...key.count).map { osa(query, Array(key.prefix($0)), transpositions: transpositions) }.min()!
            }
            return d <= limit ? d : nil
        }
    }

    static func actual(
        _ query: [UInt32], budget: Int, wholeWord: Bool, exactPrefix: Int, forgiven: Int = 0,
        transpositions: Bool = true, swap: Bool = false, in index: FuzzyIndex = index
    ) -> [Int?] {
        var search = TypoSearch(
            index: index, query: query, maxTypos: budget, transpositions: transpositions, wholeWord: wholeWord,
            exactPrefix: exactPrefix, wrongPrefixTypos: forgiven, firstSwap: swap
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

    @Test(arguments: queries)
    func aWrongFirstLetterIsForgivenOnlyAsTheOnlyTypo(text: String) {
        let query = FuzzyMatcher.scalars(TextNormalizer.normalized(text))
        for budget in 0...2 {
            for wholeWord in [false, true] {
                for transpositions in [true, false] {
                    for (forgiven, swap) in [(1, true), (1, false), (0, true)] {
                        let want = Self.expected(
                            query, budget: budget, wholeWord: wholeWord, exactPrefix: 1, forgiven: forgiven,
                            transpositions: transpositions, swap: swap)
                        let got = Self.actual(
                            query, budget: budget, wholeWord: wholeWord, exactPrefix: 1, forgiven: forgiven,
                            transpositions: transpositions, swap: swap)
                        #expect(got == want, "\(text) \(budget) \(wholeWord) \(transpositions) \(forgiven) \(swap)")
                    }
                }
            }
        }
    }

    /// Random keys over four letters: dense subtrees, where most nodes of a walk have spent their budget (the walk
    /// then looks children up by binary search instead of listing them).
    @Test func walkMatchesBruteForceOnARandomDictionary() {
        var generator = SplitMix(seed: 7)
        let letters: [Character] = ["a", "b", "c", "d"]
        func word(_ length: Int) -> String { String((0..<length).map { _ in letters[Int(generator.next() % 4)] }) }
        let words = (0..<160).map { _ in word(1 + Int(generator.next() % 7)) }
        let dictionary = WeightedDictionary(entries: words.map { (text: $0, weight: 1, scope: nil) })
        let index = FuzzyIndex(dictionary)
        for _ in 0..<10 {
            let query = FuzzyMatcher.scalars(Array(word(2 + Int(generator.next() % 5)).utf8))
            for budget in 1...2 {
                for (exactPrefix, forgiven, swap) in [(0, 0, false), (1, 0, false), (1, 1, true), (1, 0, true)] {
                    for wholeWord in [false, true] {
                        for transpositions in [true, false] {
                            let want = Self.expected(
                                query, budget: budget, wholeWord: wholeWord, exactPrefix: exactPrefix,
                                forgiven: forgiven, transpositions: transpositions, swap: swap, in: index)
                            let got = Self.actual(
                                query, budget: budget, wholeWord: wholeWord, exactPrefix: exactPrefix,
                                forgiven: forgiven, transpositions: transpositions, swap: swap, in: index)
                            #expect(got == want, "\(query) \(budget) \(exactPrefix) \(forgiven) \(wholeWord)")
                        }
                    }
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

/// A small deterministic generator for the random tests.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
