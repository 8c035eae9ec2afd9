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
