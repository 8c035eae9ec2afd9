import SuggestCore
import SuggestIndex
import Testing

@testable import SuggestFuzzy

/// Whole-word corrections searched in two directions (the index's keys and its reversed keys,
/// `FuzzyOptions.reversedKeys`) are those of one forward walk, typo counts included. Both providers share one index:
/// the forward one ignores its reversed keys.
struct FuzzyTwoDirectionTests {
    /// Words of 6–12 letters over a small alphabet (so that many are a few typos apart), with weights.
    static func words(count: Int, seed: UInt64, letters: [Character] = Array("abcdeéfgh")) -> [String] {
        var state = seed
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33)
        }
        var seen = Set<String>()
        var words: [String] = []
        while words.count < count {
            let word = String((0..<(6 + next() % 7)).map { _ in letters[next() % letters.count] })
            if seen.insert(word).inserted { words.append(word) }
        }
        return words
    }

    /// `word` with `edits` random edits (substitution, insertion, deletion, swap of neighbours), at any place:
    /// the first letter and the columns around the split included.
    static func misspelt(
        _ word: String, edits: Int, seed: inout UInt64, letters: [Character] = Array("abcdeéfgh")
    ) -> String {
        func next() -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(seed >> 33)
        }
        var chars = Array(word)
        for _ in 0..<edits where chars.count > 2 {
            let at = next() % chars.count
            switch next() % 4 {
            case 0: chars[at] = letters[next() % letters.count]
            case 1: chars.insert(letters[next() % letters.count], at: at)
            case 2: chars.remove(at: at)
            default: if at + 1 < chars.count { chars.swapAt(at, at + 1) }
            }
        }
        return String(chars)
    }

    /// Providers over one index of `dictionary`: with reversed keys (made with the provider: a small dictionary),
    /// and without.
    static func providers(_ dictionary: WeightedDictionary) throws -> (split: FuzzyProvider, forward: FuzzyProvider) {
        let index = FuzzyIndex(dictionary)
        var options = FuzzyOptions()
        options.reversedKeys = true
        let split = try FuzzyProvider(index: index, options: options)
        #expect(index.reversed != nil)
        var forward = FuzzyOptions()
        forward.reversedKeys = false
        return (split, try FuzzyProvider(index: index, options: forward))
    }

    @Test(arguments: [1, 2, 3])
    func splitSearchesFindTheCorrectionsOfOneForwardWalk(seed: UInt64) throws {
        let words = Self.words(count: 1_500, seed: seed)
        let dictionary = WeightedDictionary(
            entries: words.enumerated().map { ($0.element, Double(1 + ($0.offset * 7_919) % 5_000), nil) })
        let (split, forward) = try Self.providers(dictionary)
        var state = seed
        var compared = 0
        for k in 0..<60 {
            let text = Self.misspelt(words[(k * 37) % words.count], edits: 1 + k % 3, seed: &state)
            // Typed letter by letter, each provider narrowing from its own previous keystroke.
            var previousSplit: (any Sendable)? = nil
            var previousForward: (any Sendable)? = nil
            for end in 1...text.count {
                let typed = String(text.prefix(end))
                for limit in [10, 40] {
                    let a = Fixture.candidates(typed, limit: limit, provider: split, previous: previousSplit)
                    let b = Fixture.candidates(typed, limit: limit, provider: forward, previous: previousForward)
                    #expect(a.candidates == b.candidates, "\(typed) limit \(limit)")
                    if limit == 10 {
                        previousSplit = a.state
                        previousForward = b.state
                    }
                    compared += 1
                }
            }
        }
        #expect(compared > 500)
    }

    /// Keys read backwards decode scalars of two, three and four bytes (continuation bytes first), and an empty key
    /// is not among them: the same corrections as forward.
    @Test func splitSearchesDecodeScalarsOfSeveralBytes() throws {
        let letters: [Character] = ["a", "b", "é", "日", "本", "🙂", "c"]
        let words = Self.words(count: 800, seed: 9, letters: letters)
        // With an entry whose key is empty ("---"), which the reversed keys do not keep.
        let dictionary = WeightedDictionary(
            entries: words.enumerated().map { ($0.element, Double(1 + ($0.offset * 31) % 97), nil) } + [("---", 50, nil)])
        let (split, forward) = try Self.providers(dictionary)
        var state: UInt64 = 4
        var found = 0
        for k in 0..<80 {
            let word = words[(k * 13) % words.count]
            let text = Self.misspelt(word, edits: 2 + k % 2, seed: &state, letters: letters)
            let a = Fixture.candidates(text, limit: 40, provider: split).candidates
            let b = Fixture.candidates(text, limit: 40, provider: forward).candidates
            #expect(a == b, "\(text)")
            if a.contains(where: { $0.title == word }) { found += 1 }
        }
        #expect(found > 20)
    }

    /// Lengths set so low that a word of three letters or fewer takes two typos as a whole word: such a word does
    /// not go past the split column and is searched forward only (it used to stop the process).
    @Test func aWordNoLongerThanTheSplitColumnIsSearchedForward() throws {
        let dictionary = WeightedDictionary(entries: [
            ("cat", 100, nil), ("cut", 50, nil), ("dog", 80, nil), ("bat", 40, nil), ("abcdefgh", 10, nil),
        ])
        let index = FuzzyIndex(dictionary)
        var options = FuzzyOptions()
        options.minLengthOneTypo = 1
        options.minLengthTwoTyposWholeWord = 1
        var forwardOptions = options
        forwardOptions.reversedKeys = false
        options.reversedKeys = true
        let split = try FuzzyProvider(index: index, options: options)
        #expect(index.reversed != nil)
        let forward = try FuzzyProvider(index: index, options: forwardOptions)
        for typed in ["qqq", "xa", "zzt", "жжж"] {
            let a = Fixture.candidates(typed, limit: 10, provider: split).candidates
            let b = Fixture.candidates(typed, limit: 10, provider: forward).candidates
            #expect(a == b, "\(typed)")
        }
        #expect(Fixture.candidates("zzt", limit: 10, provider: split).candidates.contains { $0.title == "cat" })
    }

    /// Corrections whose typos sit where the split falls: two letters inserted at the split column ("spe" + "ci" +
    /// "fic"), a wrong first letter with a typo next to it, a missing first letter, two extra first letters.
    @Test func correctionsAtTheSplitAndAtTheWordsStart() throws {
        let dictionary = WeightedDictionary(entries: [
            ("specific", 100, nil), ("speculative", 50, nil), ("listened", 80, nil), ("phonetic", 40, nil),
            ("together", 90, nil), ("wonderful", 70, nil), ("abcdefgh", 10, nil),
        ])
        let (split, forward) = try Self.providers(dictionary)
        let cases = [
            ("spefic", "specific"), ("specifcial", "specific"), ("istened", "listened"), ("fonetic", "phonetic"),
            ("xxtogether", "together"), ("tgoethre", "together"), ("wundervul", "wonderful"), ("wonrfull", "wonderful"),
        ]
        for (typed, word) in cases {
            let a = Fixture.candidates(typed, limit: 10, provider: split).candidates
            let b = Fixture.candidates(typed, limit: 10, provider: forward).candidates
            #expect(a == b, "\(typed)")
            #expect(a.contains { $0.title == word }, "\(typed): \(a.map(\.title))")
        }
    }
}
