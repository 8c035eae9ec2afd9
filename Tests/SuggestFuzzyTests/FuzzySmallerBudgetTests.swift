import SuggestCore
import SuggestIndex
import Testing

@testable import SuggestFuzzy

/// At eight letters the completion budget grows from one typo to two, and the walk with two cannot be narrowed from
/// the keystroke before. It is made only when its tier can be shown in the upper half of the list: not when the
/// matches within one typo hold half of it.
struct FuzzySmallerBudgetTests {
    /// `completions` names completing "packagi" (one typo from "pacakagi", whose second "a" is extra), and two names
    /// two typos from "pacakagi" that no budget of one finds.
    static func index(completions: Int) -> FuzzyIndex {
        var entries: [(text: String, weight: Double, scope: String?)] = []
        for i in 0..<completions { entries.append((text: "packaging-\(i)", weight: Double(100 + i), scope: nil)) }
        entries.append((text: "pxcxkagi-tool", weight: 1_000, scope: nil))
        entries.append((text: "pacakaxyz", weight: 1_000, scope: nil))
        // Names that make the first levels of the trie wide, as in a real dictionary.
        for first in ["pa", "pe", "pi", "po", "pu", "pr", "pl", "py"] {
            for second in "abcdefghijklmnopqrstuvwxyz" {
                entries.append((text: "\(first)\(second)kagi-\(first)", weight: 1, scope: nil))
            }
        }
        return FuzzyIndex(WeightedDictionary(entries: entries))
    }

    struct Keystroke {
        var titles: [String]
        var tiers: [MatchTier]
        var typos: Int?
        var visited: Int
        var state: FuzzyKept?
    }

    static func type(_ text: String, index: FuzzyIndex, limit: Int = 10, previous: FuzzyKept? = nil) -> Keystroke {
        var matcher = FuzzyMatcher(index: index, options: FuzzyOptions())
        matcher.run(query: PreparedQuery(SearchQuery(text: text)), limit: limit, previous: previous)
        let typos = matcher.state?.typos
        return Keystroke(
            titles: matcher.candidates.map(\.title), tiers: matcher.candidates.map(\.tier),
            typos: typos, visited: matcher.visited, state: matcher.takeKept())
    }

    @Test func aFullListWithinOneTypoSkipsTheWalkWithTwo() {
        let index = Self.index(completions: 11)
        let filled = Self.type("pacakagi", index: index, limit: 10)
        #expect(filled.typos == 1)
        #expect(!filled.tiers.contains(.twoTypos))
        #expect(filled.titles.filter { $0.hasPrefix("packaging-") }.count >= 10)
        // With a limit of 30 the thirteen keys within one typo (the eleven completions, "paakagi-pa" and
        // "packagi-pa") hold less than half of the list: the walk with two typos is made, and finds the names two
        // typos away.
        let open = Self.type("pacakagi", index: index, limit: 30)
        #expect(open.typos == 2)
        #expect(open.titles.contains("pxcxkagi-tool"))
        #expect(open.titles.contains("pacakaxyz"))
        #expect(filled.visited * 2 < open.visited, "\(filled.visited) against \(open.visited)")
    }

    @Test func tooFewCompletionsWalkWithTwo() {
        // Three keys within one typo (a completion, "paakagi-pa", "packagi-pa"): fewer than half of ten.
        let found = Self.type("pacakagi", index: Self.index(completions: 1))
        #expect(found.typos == 2)
        #expect(found.tiers.contains(.twoTypos))
        #expect(found.titles.contains("pxcxkagi-tool"))
    }

    @Test func halfAListWithinOneTypoSkipsTheWalkWithTwo() {
        // Five keys within one typo hold half of ten: the two-typo tier could only fill the lower half.
        let half = Self.type("pacakagi", index: Self.index(completions: 3))
        #expect(half.typos == 1)
        #expect(!half.tiers.contains(.twoTypos))
        #expect(half.titles.count == 5)
        // Four are fewer than half: the walk with two is made.
        let four = Self.type("pacakagi", index: Self.index(completions: 2))
        #expect(four.typos == 2)
        #expect(four.titles.contains("pxcxkagi-tool"))
    }

    @Test(arguments: [1, 2, 3, 11])
    func everyKeystrokeAnswersAsACold(completions: Int) {
        // Filling at "pacakagi", no longer at "pacakagix" (nothing completes "packagix"), a backspace, then on.
        let texts = [
            "p", "pa", "pac", "paca", "pacak", "pacaka", "pacakag", "pacakagi", "pacakagix", "pacakagi", "pacakagin",
            "pacakagi", "pacakag", "pacakagx", "pacakagxy",
        ]
        let index = Self.index(completions: completions)
        var previous: FuzzyKept? = nil
        for text in texts {
            let typed = Self.type(text, index: index, previous: previous)
            let cold = Self.type(text, index: index)
            #expect(typed.titles == cold.titles, "\(text)")
            #expect(typed.tiers == cold.tiers, "\(text)")
            previous = typed.state
        }
    }

    @Test func theNextKeystrokeNarrowsFromTheSmallerBudget() throws {
        let index = Self.index(completions: 11)
        let first = Self.type("pacakagi", index: index)
        let next = Self.type("pacakagin", index: index, previous: first.state)
        #expect(next.typos == 1)
        let cold = Self.type("pacakagin", index: index)
        #expect(next.visited < cold.visited, "narrowed: \(next.visited) nodes, cold: \(cold.visited)")
        #expect(next.titles == cold.titles)
    }
}
