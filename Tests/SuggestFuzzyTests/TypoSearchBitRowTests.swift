import SuggestCore
import SuggestIndex
import Testing

@testable import SuggestFuzzy

/// The typo walk with its rows as bit vectors against the same walk with rows of cells: the same hits and endings in
/// the same order, the same nodes counted, the same cut, for every kind of walk the provider makes.
struct TypoSearchBitRowTests {
    /// Keys with long shared prefixes, keys that end where others go on, twins (one key for several entries),
    /// several words, and non-ASCII scalars of two, three and four bytes.
    static let words: [String] = {
        var generator = SplitMix(seed: 11)
        let letters: [String] = ["a", "b", "c", "d", "e", "é", "ß", " ", "м", "日", "🙂"]
        var words: [String] = []
        for _ in 0..<700 {
            let length = 1 + Int(generator.next() % 9)
            var word = ""
            for _ in 0..<length { word += letters[Int(generator.next() % UInt64(letters.count))] }
            while word.hasPrefix(" ") { word.removeFirst() }
            while word.hasSuffix(" ") { word.removeLast() }
            words.append(word)
        }
        words += ["abcabcabc", "abcabcabd", "abcabcab", "abcabc", "abcab", "abc abc", "abc abd", "Abc", "ABC"]
        return words.filter { !$0.isEmpty }
    }()

    static let index = FuzzyIndex(
        WeightedDictionary(entries: words.enumerated().map { (text: $1, weight: Double($0 % 13 + 1), scope: nil) }))

    struct Outcome: Equatable {
        var hits: [TypoHit]
        var endings: [TypoHit]
        var visited: Int
        var cut: Bool
    }

    /// One walk, with bit rows or with cell rows.
    static func walk(
        _ query: [UInt32], cellRows: Bool, budget: Int, wholeWord: Bool, exactPrefix: Int, forgiven: Int,
        onlyWrong: Bool, swap: Bool, transpositions: Bool, capWords: Bool, capThrough: Int?, continuations: Bool,
        nodeBudget: Int, starts: [TypoSearch.Start]?, reversed: ReversedKeys? = nil
    ) -> Outcome {
        var search = TypoSearch(
            index: index, query: query, maxTypos: budget, transpositions: transpositions, wholeWord: wholeWord,
            exactPrefix: exactPrefix, wrongPrefixTypos: forgiven, onlyWrongPrefix: onlyWrong, firstSwap: swap,
            reversed: reversed, cellRows: cellRows)
        if capWords { search.capByWords { length, last in last ? min(1, length / 3) : length / 4 } }
        if let capThrough { search.cap(through: capThrough, typos: 0) }
        search.wordContinuations = continuations
        search.nodeBudget = nodeBudget
        search.run(from: starts)
        return Outcome(hits: search.hits, endings: search.endings, visited: search.visited, cut: search.cut)
    }

    @Test func bitRowsWalkAsCellRowsDo() {
        var generator = SplitMix(seed: 5)
        let queries = Self.words.shuffledDeterministically(&generator).prefix(40).map { word -> [UInt32] in
            // A typo or two in most of them.
            var scalars = FuzzyMatcher.scalars(TextNormalizer.normalized(word))
            if !scalars.isEmpty && generator.next() % 3 != 0 {
                scalars[Int(generator.next() % UInt64(scalars.count))] = UInt32(("a" as Unicode.Scalar).value)
            }
            if scalars.count > 2 && generator.next() % 2 == 0 { scalars.swapAt(0, 1) }
            return scalars
        }
        var compared = 0
        for query in queries where !query.isEmpty {
            for budget in 0...3 {
                for (exactPrefix, forgiven, onlyWrong, swap) in [
                    (0, 0, false, false), (1, 0, false, true), (1, 1, false, true), (1, 1, true, true),
                    (2, 1, false, false),
                ] where !(onlyWrong && forgiven >= budget) {
                    for wholeWord in [false, true] {
                        for (transpositions, capWords, capThrough, continuations) in [
                            (true, false, nil, false), (false, false, nil, true), (true, true, nil, true),
                            (true, false, Int?(2), false),
                        ] {
                            for nodeBudget in [Int.max, 25] {
                                let arguments = (budget, wholeWord, exactPrefix, forgiven, onlyWrong, swap)
                                let bits = Self.walk(
                                    query, cellRows: false, budget: budget, wholeWord: wholeWord,
                                    exactPrefix: exactPrefix, forgiven: forgiven, onlyWrong: onlyWrong, swap: swap,
                                    transpositions: transpositions, capWords: capWords, capThrough: capThrough,
                                    continuations: continuations, nodeBudget: nodeBudget, starts: nil)
                                let cells = Self.walk(
                                    query, cellRows: true, budget: budget, wholeWord: wholeWord,
                                    exactPrefix: exactPrefix, forgiven: forgiven, onlyWrong: onlyWrong, swap: swap,
                                    transpositions: transpositions, capWords: capWords, capThrough: capThrough,
                                    continuations: continuations, nodeBudget: nodeBudget, starts: nil)
                                #expect(bits == cells, "\(query) \(arguments) \(transpositions) \(capWords)")
                                compared += 1
                            }
                        }
                    }
                }
            }
        }
        #expect(compared > 5_000)
    }

    @Test func bitRowsWalkAsCellRowsDoBelowEarlierHitsAndOverReversedKeys() {
        let reversed = ReversedKeys(Self.index.prefixIndex, maxLength: FuzzyIndex.reversedLength)
        let matcher = FuzzyMatcher(index: Self.index, options: FuzzyOptions())
        for word in Self.words.prefix(60) {
            let scalars = FuzzyMatcher.scalars(TextNormalizer.normalized(word))
            guard scalars.count >= 2 else { continue }
            for budget in 1...3 {
                let shorter = Array(scalars.dropLast())
                var first = TypoSearch(
                    index: Self.index, query: shorter, maxTypos: budget, transpositions: true, wholeWord: false,
                    exactPrefix: 1, wrongPrefixTypos: 1, firstSwap: true)
                first.run()
                let starts = matcher.restartNodes(first.hits)
                let below = [false, true].map {
                    Self.walk(
                        scalars, cellRows: $0, budget: budget, wholeWord: false, exactPrefix: 1, forgiven: 1,
                        onlyWrong: false, swap: true, transpositions: true, capWords: false, capThrough: nil,
                        continuations: true, nodeBudget: Int.max, starts: starts)
                }
                #expect(below[0] == below[1], "\(word) \(budget) below earlier hits")
                let backwards = Array(scalars.reversed())
                let over = [false, true].map {
                    Self.walk(
                        backwards, cellRows: $0, budget: budget, wholeWord: true, exactPrefix: 0, forgiven: 0,
                        onlyWrong: false, swap: false, transpositions: true, capWords: false,
                        capThrough: scalars.count / 2, continuations: false, nodeBudget: Int.max, starts: nil,
                        reversed: reversed)
                }
                #expect(over[0] == over[1], "\(word) \(budget) over reversed keys")
            }
        }
    }

    @Test func aQueryTooLongForBitRowsWalksWithCells() {
        let long = [UInt32](repeating: UInt32(("a" as Unicode.Scalar).value), count: TypoSearch.maximumBitLength + 1)
        let search = TypoSearch(
            index: Self.index, query: long, maxTypos: 2, transpositions: true, wholeWord: false, exactPrefix: 1)
        #expect(!search.bitRows)
        let short = Array(long.prefix(TypoSearch.maximumBitLength))
        let bits = TypoSearch(
            index: Self.index, query: short, maxTypos: 2, transpositions: true, wholeWord: false, exactPrefix: 1)
        #expect(bits.bitRows)
    }
}

extension Array {
    /// The elements in an order drawn from `generator` (Fisher–Yates).
    func shuffledDeterministically(_ generator: inout SplitMix) -> [Element] {
        var result = self
        guard result.count > 1 else { return result }
        for i in stride(from: result.count - 1, to: 0, by: -1) {
            result.swapAt(i, Int(generator.next() % UInt64(i + 1)))
        }
        return result
    }
}
