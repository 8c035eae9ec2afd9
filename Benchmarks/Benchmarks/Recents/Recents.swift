import Benchmark
import Foundation
import SuggestCore
import SuggestRecents

/// Recent searches: one keystroke of the `recent` provider over 1,000 remembered searches (budget: p50 5 µs,
/// p99 20 µs), and the same keystrokes through the engine.
///
/// The searches are made up from a fixed word list with a fixed seed (no data file needed): 1,000 distinct
/// searches of 1 to 4 words, used 1 to 5 times over 60 days.

/// A small deterministic random number generator.
struct SplitMix {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}

let words = """
    swift python rust kotlin java typescript javascript go ruby haskell elixir scala tutorial guide \
    reference book course example examples async await concurrency actor actors mutex lock thread \
    threads memory leak performance benchmark profiling testing unit integration macros generics \
    protocol protocols extension closures optionals errors networking json parsing decoding encoding \
    server client database sqlite postgres redis cache index search suggest suggestions recent \
    history new york paris london berlin tokyo weather news café crème brûlée recipe chicken soup \
    beef stew vegan pasta pizza sushi ramen coffee tea release notes changelog migration upgrade
    """.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)

/// 1,000 distinct searches with uses spread over 60 days, in one provider.
let provider: RecentsProvider = {
    var rng = SplitMix(state: 42)
    let start = Date(timeIntervalSince1970: 1_795_000_000)
    let clock = ClockBox(start)
    let provider = RecentsProvider(options: .init(capacity: 1_000), now: { clock.now })
    var seen = Set<String>()
    while seen.count < 1_000 {
        let count = 1 + rng.next(4)
        let text = (0..<count).map { _ in words[rng.next(words.count)] }.joined(separator: " ")
        guard seen.insert(text).inserted else { continue }
        for _ in 0...rng.next(5) {
            clock.now = start.addingTimeInterval(Double(rng.next(60 * 86_400)))
            provider.record(SearchQuery(text: text))
        }
    }
    precondition(provider.searches.count == 1_000)
    return provider
}()

/// The clock of the set-up (single-threaded).
final class ClockBox: @unchecked Sendable {
    // Only written while the provider is built, before any benchmark runs.
    var now: Date
    init(_ now: Date) { self.now = now }
}

/// People typing searches keystroke by keystroke (prefix, word-prefix, contains, no match).
let keystrokes: [PreparedQuery] = {
    let texts = ["swift concurrency", "python tutorial", "new york weather", "recipe chicken", "zzz", "ync", "café"]
    return texts.flatMap { text in (1...text.count).map { PreparedQuery(SearchQuery(text: String(text.prefix($0)))) } }
}()

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .throughput],
        timeUnits: .microseconds,
        maxDuration: .seconds(3),
        maxIterations: 1_000_000
    )
    _ = provider.searches.count

    Benchmark("Recents suggest, 1,000 searches, typing (limit 8)") { benchmark in
        for i in benchmark.scaledIterations {
            var output = ProviderOutput()
            try provider.suggest(SuggestionRequest(query: keystrokes[i % keystrokes.count], limit: 8), into: &output)
            blackHole(output)
        }
    }

    let empty = PreparedQuery(SearchQuery())
    Benchmark("Recents suggest, 1,000 searches, empty field (limit 8)") { benchmark in
        for _ in benchmark.scaledIterations {
            var output = ProviderOutput()
            try provider.suggest(SuggestionRequest(query: empty, limit: 8), into: &output)
            blackHole(output)
        }
    }

    let engine = SuggestionEngine(slots: [ProviderSlot(provider, section: "Recent")])
    let queries = keystrokes.map(\.query)
    Benchmark("Recents through the engine, 1,000 searches, typing") { benchmark in
        var session = TypingSession()
        for i in benchmark.scaledIterations {
            blackHole(engine.suggestions(for: queries[i % queries.count], session: &session))
        }
    }
}
