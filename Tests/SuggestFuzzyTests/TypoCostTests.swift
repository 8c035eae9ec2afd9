import SuggestCore
import Testing

@testable import SuggestFuzzy

struct TypoCostTests {
    static func cost(_ typed: String, _ key: String, prefix: Bool = false) -> Int32 {
        var model = TypoCost()
        return model.cost(UTF8Scalars.values(Array(typed.utf8)), keyBytes: Array(key.utf8)[...], prefix: prefix)
    }

    @Test func eachKindOfEditHasItsCost() {
        #expect(Self.cost("weather", "weather") == 0)
        // One vowel for another, any other letter.
        #expect(Self.cost("weither", "weather") == TypoCost.vowel)
        #expect(Self.cost("wzrd", "word") == TypoCost.typo)
        #expect(Self.cost("wyrd", "word") == TypoCost.vowel)
        // A doubled letter undoubled or doubled, a letter added elsewhere.
        #expect(Self.cost("acros", "across") == TypoCost.doubled)
        #expect(Self.cost("accross", "across") == TypoCost.doubled)
        #expect(Self.cost("agiles", "agile") == TypoCost.typo)
        // Two neighbouring letters swapped.
        #expect(Self.cost("teh", "the") == TypoCost.swap)
        // The first character: added, left out or replaced.
        #expect(Self.cost("weither", "either") == TypoCost.typo + TypoCost.firstCharacter)
        #expect(Self.cost("agiles", "giles") == TypoCost.typo + TypoCost.firstCharacter)
        #expect(Self.cost("hicken", "chicken") == TypoCost.typo + TypoCost.firstCharacter)
        #expect(Self.cost("bat", "cat") == TypoCost.typo + TypoCost.firstCharacter)
        // Two edits add up.
        #expect(Self.cost("wether", "whither") == TypoCost.typo + TypoCost.vowel)
    }

    @Test func aCompletionIsAlignedWithItsBestPrefix() {
        #expect(Self.cost("recie", "receive", prefix: true) == TypoCost.swap)
        #expect(Self.cost("recie", "receive", prefix: false) > TypoCost.swap)
        #expect(Self.cost("caf", "café", prefix: true) == 0)
        // Folded non-ASCII scalars are compared as scalars.
        #expect(Self.cost("cafè", "café") == TypoCost.typo)
    }

    @Test func theFactorIsOneAtAnOrdinaryTypoAndMonotone() {
        #expect(TypoCost.factor(cost: 10, typos: 1) == 1)
        #expect(TypoCost.factor(cost: 20, typos: 2) == 1)
        #expect(TypoCost.factor(cost: 20, typos: 1) < TypoCost.factor(cost: 15, typos: 1))
        #expect(TypoCost.factor(cost: 15, typos: 1) < 1)
        #expect(TypoCost.factor(cost: 5, typos: 1) > 1)
        // Far beyond the table: clamped, never zero or infinite.
        #expect(TypoCost.factor(cost: 1_000, typos: 1) > 0)
        #expect(TypoCost.factor(cost: 0, typos: 60).isFinite)
    }
}

/// The alignment written plainly, cell by cell with its bounds checks (the model the faster one must equal).
struct TypoCostReferenceTests {
    static func reference(_ q: [UInt32], _ t: [UInt32], prefix: Bool) -> Int32 {
        let m = q.count
        let n = t.count
        func isVowel(_ c: UInt32) -> Bool { TypoCost.isVowel(c) }
        func added(_ i: Int, _ j: Int) -> Int32 {
            let c = q[i]
            if (i > 0 && q[i - 1] == c) || (j < n && t[j] == c) || (j > 0 && t[j - 1] == c) { return TypoCost.doubled }
            return TypoCost.typo
        }
        func leftOut(_ j: Int, _ i: Int) -> Int32 {
            let c = t[j]
            if (j > 0 && t[j - 1] == c) || (j + 1 < n && t[j + 1] == c) || (i > 0 && q[i - 1] == c) {
                return TypoCost.doubled
            }
            return TypoCost.typo
        }
        let first = TypoCost.firstCharacter
        var d = [[Int32]](repeating: [Int32](repeating: 0, count: n + 1), count: m + 1)
        for j in stride(from: 1, through: n, by: 1) { d[0][j] = d[0][j - 1] + leftOut(j - 1, 0) + (j == 1 ? first : 0) }
        for i in stride(from: 1, through: m, by: 1) {
            d[i][0] = d[i - 1][0] + added(i - 1, 0) + (i == 1 ? first : 0)
            for j in stride(from: 1, through: n, by: 1) {
                let a = q[i - 1]
                let b = t[j - 1]
                var best =
                    a == b
                    ? d[i - 1][j - 1]
                    : d[i - 1][j - 1] + (isVowel(a) && isVowel(b) ? TypoCost.vowel : TypoCost.typo)
                        + (i == 1 && j == 1 ? first : 0)
                best = min(best, d[i - 1][j] + added(i - 1, j) + (i == 1 ? first : 0))
                best = min(best, d[i][j - 1] + leftOut(j - 1, i) + (j == 1 ? first : 0))
                if i > 1 && j > 1 && a == t[j - 2] && q[i - 2] == b && a != b {
                    best = min(best, d[i - 2][j - 2] + TypoCost.swap + (i == 2 ? first : 0))
                }
                d[i][j] = best
            }
        }
        return prefix ? d[m].min()! : d[m][n]
    }

    /// Random pairs over a few letters (vowels, doubled letters and swaps are frequent), some non-ASCII, of every
    /// length from empty: the same cost as the reference, whole and as a best prefix (the key cut as `cost` cuts it).
    @Test(arguments: [1, 2, 3] as [UInt64])
    func theCostIsTheReferences(seed: UInt64) {
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % bound
        }
        let letters: [UInt32] = [0x61, 0x65, 0x62, 0x74, 0x6F, 0x72, 0x79, 0xE9, 0x65E5]
        var model = TypoCost()
        var differentFromZero = 0
        for _ in 0..<3_000 {
            let q = (0..<next(9)).map { _ in letters[next(letters.count)] }
            var t = (0..<next(12)).map { _ in letters[next(letters.count)] }
            if !q.isEmpty && next(3) == 0 {
                // A near miss: the query with one or two edits.
                t = q
                for _ in 0...next(2) where !t.isEmpty {
                    let at = next(t.count)
                    switch next(4) {
                    case 0: t[at] = letters[next(letters.count)]
                    case 1: t.insert(t[at], at: at)
                    case 2: t.remove(at: at)
                    default: if at + 1 < t.count { t.swapAt(at, at + 1) }
                    }
                }
            }
            let bytes = Array(String(String.UnicodeScalarView(t.compactMap(Unicode.Scalar.init))).utf8)
            for prefix in [false, true] {
                let cut = prefix ? Array(t.prefix(q.count + TypoCost.prefixSlack)) : t
                let expected = Self.reference(q, cut, prefix: prefix)
                #expect(model.cost(q, keyBytes: bytes[...], prefix: prefix) == expected, "\(q) \(t) \(prefix)")
                if expected > 0 { differentFromZero += 1 }
            }
        }
        #expect(differentFromZero > 3_000)
    }
}
