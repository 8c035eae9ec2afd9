import SuggestCore
import Testing

@testable import SuggestFuzzy

/// A query of several words whose words before the last start at least `limit` keys looks for typos in the last word
/// first, and in the earlier words only when that finds nothing.
struct FuzzyEarlierWordsTests {
    /// `python-<word>` names (`pythonNames` of them), and names with a misspelt first word.
    static func provider(pythonNames: Int) throws -> FuzzyProvider {
        var texts = ["python-dateutil", "pythn-dateutil", "pythn-zebra", "pyton-dateutil"]
        let words = ["alpha", "beta", "gamma", "delta", "epsilon", "kappa", "lambda", "sigma", "omega", "theta", "iota"]
        texts += words.prefix(pythonNames).map { "python-\($0)" }
        let dictionary = WeightedDictionary(entries: texts.map { (text: $0, weight: 1, scope: nil) })
        return try FuzzyProvider(index: FuzzyIndex(dictionary))
    }

    static func suggest(_ text: String, _ provider: FuzzyProvider, previous: (any Sendable)? = nil) throws
        -> (titles: [String], state: (any Sendable)?)
    {
        var output = ProviderOutput()
        let query = PreparedQuery(SearchQuery(text: text))
        try provider.suggest(SuggestionRequest(query: query, limit: 10, previousState: previous), into: &output)
        return (output.candidates.map(\.title), output.state)
    }

    @Test func commonEarlierWordsKeepTheirSpelling() throws {
        // "python " starts 11 keys: "pythn-dateutil" (a typo in the first word) is not offered for "python-dateutil".
        let common = try Self.suggest("python-dateutil", Self.provider(pythonNames: 10)).titles
        #expect(common.contains("python-dateutil"))
        #expect(!common.contains("pythn-dateutil"))
        #expect(!common.contains("pyton-dateutil"))
        // With "python " starting fewer keys than the limit, the typos go anywhere.
        let rare = try Self.suggest("python-dateutil", Self.provider(pythonNames: 3)).titles
        #expect(rare.contains("pythn-dateutil"))
        #expect(rare.contains("pyton-dateutil"))
    }

    @Test func theLongestRunOfCommonFirstWordsKeepsItsSpelling() throws {
        // "python " starts 11 keys, "python dateutl " none: "python" is kept as typed, the typo goes to "dateutl"
        // ("python-dateutil-x"), and "pythn-dateutl-x" (one typo, in the first word) is not offered as a completion
        // (the every-word step, off here, may still offer it, below the completions).
        var texts = ["python-dateutil-x", "pythn-dateutl-x"]
        let words = ["alpha", "beta", "gamma", "delta", "epsilon", "kappa", "lambda", "sigma", "omega", "theta"]
        texts += words.map { "python-\($0)" }
        let dictionary = WeightedDictionary(entries: texts.map { (text: $0, weight: 1, scope: nil) })
        var options = FuzzyOptions()
        options.everyWord = false
        let provider = try FuzzyProvider(index: FuzzyIndex(dictionary), options: options)
        let titles = try Self.suggest("python-dateutl-x", provider).titles
        #expect(titles == ["python-dateutil-x"])
        // Typed letter by letter: every keystroke answers as a cold one.
        var previous: (any Sendable)? = nil
        var text = ""
        for character in "python-dateutl-x" {
            text.append(character)
            let typed = try Self.suggest(text, provider, previous: previous)
            previous = typed.state
            #expect(typed.titles == (try Self.suggest(text, provider).titles), "\(text)")
        }
    }

    @Test func anEarlierWordIsCorrectedWhenTheLastFindsNothing() throws {
        // Nothing below "python" is within a typo of "python zebra": the first word's typo is looked for.
        let found = try Self.suggest("python-zebra", Self.provider(pythonNames: 10)).titles
        #expect(found == ["pythn-zebra"])
    }

    @Test func typingAnswersAsACold() throws {
        let provider = try Self.provider(pythonNames: 10)
        for target in ["python-dateutil", "python-zebra", "pyton-dateutil", "python-dateutil-x"] {
            var previous: (any Sendable)? = nil
            var text = ""
            for character in target {
                text.append(character)
                let typed = try Self.suggest(text, provider, previous: previous)
                previous = typed.state
                #expect(typed.titles == (try Self.suggest(text, provider).titles), "\(text)")
            }
            // Backspaced to the first word and typed again.
            for _ in 0..<(target.count - 3) {
                text.removeLast()
                let typed = try Self.suggest(text, provider, previous: previous)
                previous = typed.state
                #expect(typed.titles == (try Self.suggest(text, provider).titles), "\(text)")
            }
        }
    }
}
