import Benchmark
import SuggestCore
import SuggestTokens

/// Token extraction per keystroke: 10 rules over a 100-character text, on PCRE2 (JIT) and on Swift `Regex`.
///
/// "extract" is `extractTokens(from:submitting:)` alone (step 2 of a keystroke); "keystroke" adds the provider's
/// `suggest` (the suggested-token candidates for the partly typed `from:al`), which the engine also calls.

/// Ten rules of the kinds a search field uses.
func rules(_ engine: PatternEngine) -> [TokenRule] {
    let specs: [(String, String, [String])] = [
        ("from", #"\bfrom:(?<value>\S+)"#, ["alice", "alex", "bob", "carol"]),
        ("to", #"\bto:(?<value>\S+)"#, []),
        ("tag", #"#(?<value>\w+)"#, []),
        ("mention", #"@(?<value>\w+)"#, []),
        ("state", #"\b(?<kind>is|has):(?<value>\w+)"#, []),
        ("before", #"\bbefore:(?<value>\d{4}-\d{2}-\d{2})"#, []),
        ("after", #"\bafter:(?<value>\d{4}-\d{2}-\d{2})"#, []),
        ("price", #"\$(?<value>\d+(?:\.\d{2})?)"#, []),
        ("in", #"\bin:(?<value>\w+)"#, ["inbox", "archive"]),
        ("phrase", #""(?<value>[^"]+)""#, []),
    ]
    return specs.map { try! TokenRule(kind: $0.0, pattern: $0.1, values: $0.2, engine: engine) }
}

/// 100 characters, the last word a partly typed token.
let text = "quick weeknight pastas with garlic lemon and parmesan for two people ready in thirty minutes from:al"
let vocabulary = TokenVocabulary([
    "ingredient": ["Chicken", "Beef", "Garlic Bread", "Lemon Curd", "Parmesan Crisps", "Sweet Potato", "Tofu"],
    "cuisine": ["Thai", "Italian", "Mexican"],
])

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .throughput],
        timeUnits: .microseconds,
        maxDuration: .seconds(3),
        maxIterations: 1_000_000
    )
    precondition(text.count == 100)

    for engine in PatternEngine.available {
        let provider = TokenProvider(rules: rules(engine))
        let query = SearchQuery(text: text)
        // Sanity: the partly typed token is suggested.
        precondition(try! provider.extractTokens(from: query, submitting: false)?.suggestedTokens.count == 2)

        Benchmark("Extract, 10 rules, 100-char text (\(engine.name))") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try! provider.extractTokens(from: query, submitting: false))
            }
        }

        let prepared = PreparedQuery(query)
        Benchmark("Keystroke (extract + suggest), 10 rules, 100-char text (\(engine.name))") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try! provider.extractTokens(from: query, submitting: false))
                var output = ProviderOutput()
                try! provider.suggest(SuggestionRequest(query: prepared, limit: 10), into: &output)
                blackHole(output)
            }
        }

        let withVocabulary = TokenProvider(rules: rules(engine), vocabulary: vocabulary)
        Benchmark("Extract, 10 rules + 10-word vocabulary, 100-char text (\(engine.name))") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try! withVocabulary.extractTokens(from: query, submitting: false))
            }
        }

        let completing = SearchQuery(text: String(text.dropLast(7)) + "#quick ")
        Benchmark("Extract, 10 rules, 100-char text completing a token (\(engine.name))") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try! provider.extractTokens(from: completing, submitting: false))
            }
        }
    }
}
