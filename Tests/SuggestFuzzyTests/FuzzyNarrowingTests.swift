import SuggestCore
import Testing

@testable import SuggestFuzzy

/// Narrowing between keystrokes: whatever the session typed before, a keystroke's answer is the cold answer.
struct FuzzyNarrowingTests {
    /// Types `texts` as one session and returns each keystroke's candidates and state.
    func type(_ texts: [String], provider: FuzzyProvider = Fixture.provider())
        -> [(candidates: [SuggestionCandidate], state: FuzzyKept?)]
    {
        var previous: (any Sendable)? = nil
        var answers: [(candidates: [SuggestionCandidate], state: FuzzyKept?)] = []
        for text in texts {
            let answer = Fixture.candidates(text, provider: provider, previous: previous)
            previous = answer.state
            answers.append((answer.candidates, answer.state as? FuzzyKept))
        }
        return answers
    }

    @Test(arguments: [
        // Backspacing over a typo and typing on; deleting a word to its first letter; a separator, then a word.
        ["p", "py", "pyh", "pyht", "pyhto", "pyht", "pyh", "py", "pyt", "pyth", "pytho", "python"],
        ["r", "re", "rec", "reci", "recie", "reciev", "recieve", "recie", "reci", "rec", "rece", "recei", "receiv"],
        ["s", "se", "sep", "sepe", "seper", "sepera", "seperat", "sepera", "seper", "sepe", "sep", "sepa", "separ"],
        ["n", "ne", "new", "new-", "new-y", "new-yo", "new-yor", "new-york", "new-york-", "new-york-t"],
        ["g", "gi", "git", "gith", "githb", "githb-", "githb-x", "githb-", "githb", "gith", "githu", "github"],
        // Abbreviations of keys the typo tier offers already ("pytho" for "ptho"), kept for the next keystroke.
        ["p", "pt", "pth", "ptho", "pthon", "ptho", "pth", "pts", "ptst"],
        // A second word whose share of the budget grows as it is typed (one typo from four letters, two from eight).
        [
            "recieve", "recieve ", "recieve s", "recieve se", "recieve sep", "recieve sepe", "recieve seper",
            "recieve sepera", "recieve seperat", "recieve seperate", "recieve seperat", "recieve seperati",
        ],
    ])
    func everyKeystrokeAnswersAsACold(_ texts: [String]) {
        let typed = type(texts)
        for (text, answer) in zip(texts, typed) {
            let cold = Fixture.candidates(text).candidates
            #expect(answer.candidates == cold, "\(text)")
        }
    }

    /// The sessions of ``everyKeystrokeAnswersAsACold(_:)``, typed at the same time below.
    static let sessions: [[String]] = [
        ["p", "py", "pyh", "pyht", "pyhto", "pyht", "pyh", "py", "pyt", "pyth", "pytho", "python"],
        ["r", "re", "rec", "reci", "recie", "reciev", "recieve", "recie", "reci", "rec", "rece", "recei", "receiv"],
        ["g", "gi", "git", "gith", "githb", "githb-", "githb-x", "githb-", "githb", "gith", "githu", "github"],
        ["a", "ab", "abv", "abvi", "abvio", "abviou", "abvious"],
    ]

    @Test func sessionsTypedAtTheSameTimeOnOneProviderAnswerAsCold() async {
        // Keystrokes running at the same time each work in memory of their own (the provider's reused scratch is
        // taken by one of them at a time).
        let provider = Fixture.provider()
        let cold = Self.sessions.map { $0.map { Fixture.candidates($0).candidates } }
        await withTaskGroup(of: (Int, [[SuggestionCandidate]]).self) { group in
            for (i, texts) in Self.sessions.enumerated() {
                for _ in 0..<4 {
                    group.addTask { (i, type(texts, provider: provider).map(\.candidates)) }
                }
            }
            for await (i, answers) in group {
                #expect(answers == cold[i], "\(Self.sessions[i].last ?? "")")
            }
        }
    }

    @Test func aKeptStateNarrowsAsAColdAfterOtherKeystrokes() {
        // What a keystroke keeps for the next one is its own: other keystrokes on the provider in between (which
        // reuse its scratch) do not change it.
        let provider = Fixture.provider()
        let pyh = type(["p", "py", "pyh"], provider: provider).last?.state
        let kept = Fixture.candidates("pyht", provider: provider, previous: pyh).state
        _ = type(Self.sessions[1] + Self.sessions[2], provider: provider)
        let next = Fixture.candidates("pyhto", provider: provider, previous: kept).candidates
        #expect(next == Fixture.candidates("pyhto").candidates)
    }

    @Test func aBackspaceNarrowsFromTheLongestEarlierKeystrokeItExtends() throws {
        let typed = type(["p", "py", "pyh", "pyht", "pyhto", "pyht"])
        let last = try #require(typed.last?.state)
        // The kept chain: the states of "p", "py" and "pyh", the proper prefixes of "pyht".
        #expect(last.earlier.map(\.text.count) == [1, 2, 3])
        let pyhto = try #require(typed[4].state)
        #expect(FuzzyState.base(for: last.text, previous: pyhto)?.text == typed[3].state?.text)
        // A text that shares no kept prefix narrows from nothing.
        #expect(FuzzyState.base(for: [0x7A], previous: pyhto) == nil)
    }

    @Test func wholeWordsWithAWrongFirstLetterNarrowWhenTheBudgetGrowsToThree() throws {
        // "uestions": no entry starts with it, so whole words two and then three typos away are looked for (three
        // from 8 letters), and the walk with a wrong first letter ("questions") holds every path to two typos
        // whatever that budget: at 8 letters it narrows from the 7-letter keystroke's hits.
        let dictionary = WeightedDictionary(entries: [
            ("question", 50, nil), ("questions", 40, nil), ("quest", 30, nil), ("questionable", 20, nil),
            ("bastion", 10, nil), ("suggestions", 10, nil), ("destination", 10, nil), ("gestation", 5, nil),
            ("estimation", 5, nil), ("ration", 5, nil),
        ])
        var options = FuzzyOptions()
        options.profile = true
        // Forward walks only (the reversed keys search these words backwards, in one walk that is not narrowed).
        options.reversedKeys = false
        let provider = try FuzzyProvider(index: FuzzyIndex(dictionary), options: options)
        func answer(_ text: String, previous: (any Sendable)?) throws -> ProviderOutput {
            var output = ProviderOutput()
            let query = PreparedQuery(SearchQuery(text: text))
            try provider.suggest(SuggestionRequest(query: query, limit: 10, previousState: previous), into: &output)
            return output
        }
        func wrongFirstNodes(_ output: ProviderOutput) throws -> Int {
            let note = try #require(output.notes.first { $0.hasPrefix("steps: ") })
            let nodes = try #require(note.firstMatch(of: /whole-words-wrong-first [0-9.]+ µs ([0-9]+) nodes/))
            return Int(nodes.1) ?? -1
        }
        var previous: (any Sendable)? = nil
        var typed: ProviderOutput? = nil
        for text in ["u", "ue", "ues", "uest", "uesti", "uestio", "uestion", "uestions"] {
            let output = try answer(text, previous: previous)
            let cold = try answer(text, previous: nil)
            #expect(output.candidates == cold.candidates, "\(text)")
            previous = output.state
            typed = output
        }
        let cold = try answer("uestions", previous: nil)
        #expect(cold.candidates.contains { $0.title == "questions" && $0.typos == 1 })
        let narrowed = try wrongFirstNodes(try #require(typed))
        #expect(narrowed > 0)
        #expect(narrowed < (try wrongFirstNodes(cold)))
    }
}

/// What a step found stays in the state while later keystrokes skip that step, for the next one that runs it.
struct FuzzyPassedOnStateTests {
    @Test func aKeystrokeThatSkipsTheWholeWordsPassesOnTheLastOnesFound() throws {
        // "recievx" finds too few suggestions: the whole words beyond the completion budget are looked for.
        var matcher = FuzzyMatcher(index: Fixture.index, options: FuzzyOptions())
        matcher.run(query: PreparedQuery(SearchQuery(text: "recievx")), limit: 10, previous: nil)
        let firstKept = matcher.takeKept()
        let first = try #require(firstKept)
        #expect(first.wholeWordHits != nil)
        #expect(first.wholeWordScalars.count == 7)
        // With a limit of one the list is full before them ("received", two typos): "recievxd" skips them and passes
        // the last ones on.
        var next = FuzzyMatcher(index: Fixture.index, options: FuzzyOptions())
        next.run(query: PreparedQuery(SearchQuery(text: "recievxd")), limit: 1, previous: first)
        let secondKept = next.takeKept()
        let second = try #require(secondKept)
        #expect(second.text.count == 8)
        #expect(second.wholeWordScalars == first.wholeWordScalars)
        #expect(second.wholeWordHits?.count == first.wholeWordHits?.count)
        #expect(second.wholeWordBudget == first.wholeWordBudget)
        // The keystroke after answers as a cold one.
        var third = FuzzyMatcher(index: Fixture.index, options: FuzzyOptions())
        third.run(query: PreparedQuery(SearchQuery(text: "recievxdz")), limit: 10, previous: second)
        var cold = FuzzyMatcher(index: Fixture.index, options: FuzzyOptions())
        cold.run(query: PreparedQuery(SearchQuery(text: "recievxdz")), limit: 10, previous: nil)
        #expect(third.candidates == cold.candidates)
    }
}
