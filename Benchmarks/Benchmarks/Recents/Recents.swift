import Benchmark
import Foundation
import SuggestCore
import SuggestRecents

/// Recent searches: one keystroke of the `recent` provider over 1,000 remembered searches (budget: p50 5 µs,
/// p99 20 µs), the same keystrokes through the engine, and `submit` to a provider already at its capacity of 100,
/// 1,000 or 100,000 searches (budget at 1,000: p99 100 µs; at 100,000: 1 ms), in memory and with a JSON file store.
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

/// Distinct made-up searches of 1 to 4 words, from `rng`, none of them in `seen` (which they are added to).
func distinctSearches(_ count: Int, rng: inout SplitMix, seen: inout Set<String>) -> [String] {
    var texts: [String] = []
    texts.reserveCapacity(count)
    while texts.count < count {
        let n = 1 + rng.next(4)
        let text = (0..<n).map { _ in words[rng.next(words.count)] }.joined(separator: " ")
        if seen.insert(text).inserted { texts.append(text) }
    }
    return texts
}

/// Submits to a provider already at its capacity: four in five submits are a new search (one search is evicted),
/// one in five makes an earlier search again (it moves to the front). The clock moves a minute per submit.
final class Submits: @unchecked Sendable {
    // Used by one benchmark at a time: set up, then driven from the benchmark's closure only.
    let capacity: Int
    let withFile: Bool
    var provider: RecentsProvider?
    var rng = SplitMix(state: 7)
    var seen = Set<String>()
    var earlier: [String] = []
    var fresh: [String] = []
    let clock = ClockBox(Date(timeIntervalSince1970: 1_795_000_000))
    var folder: String?

    init(capacity: Int, withFile: Bool) {
        self.capacity = capacity
        self.withFile = withFile
    }

    func setUp() throws {
        guard provider == nil else { return }
        earlier = distinctSearches(capacity, rng: &rng, seen: &seen)
        fresh = distinctSearches(20_000, rng: &rng, seen: &seen)
        let start = clock.now
        // Uses spread over the 60 days before the first submit, 1 to 3 each.
        let searches = earlier.map { text in
            let last = start.addingTimeInterval(-Double(1 + rng.next(60 * 86_400)))
            return (text, last.timeIntervalSince1970, 1 + rng.next(3))
        }
        let clock = self.clock
        if withFile {
            let folder = NSTemporaryDirectory() + "suggest-recents-bench-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            self.folder = folder
            let path = folder + "/recents.json"
            let entries: [[String: Any]] = searches.map { text, last, uses in
                ["text": text, "uses": uses, "score": Double(uses), "firstUsed": last, "lastUsed": last]
            }
            let data = try JSONSerialization.data(withJSONObject: ["version": 1, "entries": entries])
            try data.write(to: URL(fileURLWithPath: path))
            provider = RecentsProvider(
                store: JSONFileRecentsStore(path: path),
                options: .init(capacity: capacity),
                now: { clock.now }
            )
        } else {
            let provider = RecentsProvider(options: .init(capacity: capacity), now: { clock.now })
            for (text, last, uses) in searches.sorted(by: { $0.1 < $1.1 }) {
                clock.now = Date(timeIntervalSince1970: last)
                for _ in 0..<uses { provider.record(SearchQuery(text: text)) }
            }
            clock.now = start
            self.provider = provider
        }
        precondition(provider!.searches.count == capacity)
    }

    func submit(_ benchmark: Benchmark) {
        let provider = provider!
        let text: String
        if rng.next(5) == 0 {
            text = earlier[rng.next(earlier.count)]
        } else {
            text = fresh.isEmpty ? distinctSearches(1, rng: &rng, seen: &seen)[0] : fresh.removeLast()
            earlier.append(text)
        }
        clock.now = clock.now.addingTimeInterval(60)
        let query = SearchQuery(text: text)
        benchmark.startMeasurement()
        blackHole(provider.record(query))
        benchmark.stopMeasurement()
    }

    func tearDown() {
        if let folder { try? FileManager.default.removeItem(atPath: folder) }
        folder = nil
        provider = nil
    }
}

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

    for capacity in [100, 1_000, 100_000] {
        for withFile in [false, true] {
            let submits = Submits(capacity: capacity, withFile: withFile)
            let store = withFile ? "JSON file store" : "memory only"
            Benchmark(
                "Recents submit, capacity \(capacity == 100_000 ? "100,000" : capacity == 1_000 ? "1,000" : "100"), full, \(store)",
                configuration: .init(
                    metrics: [.wallClock, .mallocCountTotal],
                    timeUnits: .microseconds,
                    warmupIterations: 1,
                    maxDuration: .seconds(15),
                    maxIterations: 2_000
                ),
                closure: { benchmark in submits.submit(benchmark) },
                setup: { try submits.setUp() },
                teardown: { submits.tearDown() }
            )
        }
    }
}
